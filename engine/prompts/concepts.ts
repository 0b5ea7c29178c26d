import { unknownWords, wordsOf, type OpenVocabulary } from './open-vocabulary';

/**
 * From words to concepts. A refinement prompt ("the rider and the horse", "cows", "hair") is
 * split into conjuncts, and each must name one thing the engine can segment: one of the 80
 * COCO classes the detector knows (engine/prompts/detector.ts), or a person part of the parts
 * model (hair, skin, clothes). Plurals, articles, adjectives and common synonyms are accepted.
 * Where a self-hoster added an open-vocabulary model (open-vocabulary.ts), any other conjunct
 * whose words it all knows is a phrase for it. A conjunct with no known concept is an error
 * that lists what is supported.
 */

/** The detector's classes, in its output order (COCO's 80 contiguous categories). */
export const COCO_CLASSES = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush',
] as const;
export type CocoClass = (typeof COCO_CLASSES)[number];

/** Channels of the person-parts model (engine/models/catalog.ts PAN_PARTS). */
export const PERSON_PARTS = { skin: 0, clothes: 1, hair: 2 } as const;
export type PersonPart = keyof typeof PERSON_PARTS;

export type Concept =
  | { kind: 'object'; name: CocoClass; classIndex: number }
  | { kind: 'part'; name: PersonPart; channel: number }
  /** A phrase for the open-vocabulary model. */
  | { kind: 'open'; name: string };

/** Other words for a class or part (singular; plurals are derived). */
const SYNONYMS: Record<string, CocoClass | PersonPart> = {
  people: 'person',
  human: 'person',
  man: 'person',
  woman: 'person',
  guy: 'person',
  girl: 'person',
  boy: 'person',
  kid: 'person',
  child: 'person',
  lady: 'person',
  gentleman: 'person',
  baby: 'person',
  toddler: 'person',
  adult: 'person',
  teenager: 'person',
  rider: 'person',
  cyclist: 'person',
  biker: 'person',
  skier: 'person',
  surfer: 'person',
  skateboarder: 'person',
  player: 'person',
  pedestrian: 'person',
  dancer: 'person',
  runner: 'person',
  athlete: 'person',
  someone: 'person',
  somebody: 'person',
  individual: 'person',
  juggler: 'person',
  walker: 'person',
  worker: 'person',
  puppy: 'dog',
  pup: 'dog',
  doggy: 'dog',
  doggo: 'dog',
  hound: 'dog',
  kitten: 'cat',
  kitty: 'cat',
  pony: 'horse',
  foal: 'horse',
  stallion: 'horse',
  mare: 'horse',
  cattle: 'cow',
  calf: 'cow',
  bull: 'cow',
  ox: 'cow',
  lamb: 'sheep',
  ram: 'sheep',
  duck: 'bird',
  swan: 'bird',
  goose: 'bird',
  pigeon: 'bird',
  seagull: 'bird',
  gull: 'bird',
  parrot: 'bird',
  chicken: 'bird',
  hen: 'bird',
  eagle: 'bird',
  owl: 'bird',
  crow: 'bird',
  sparrow: 'bird',
  automobile: 'car',
  sedan: 'car',
  suv: 'car',
  taxi: 'car',
  cab: 'car',
  jeep: 'car',
  motorbike: 'motorcycle',
  scooter: 'motorcycle',
  moped: 'motorcycle',
  bike: 'bicycle',
  cycle: 'bicycle',
  plane: 'airplane',
  aeroplane: 'airplane',
  jet: 'airplane',
  aircraft: 'airplane',
  locomotive: 'train',
  tram: 'train',
  lorry: 'truck',
  pickup: 'truck',
  van: 'truck',
  ship: 'boat',
  yacht: 'boat',
  canoe: 'boat',
  kayak: 'boat',
  sailboat: 'boat',
  television: 'tv',
  monitor: 'tv',
  screen: 'tv',
  sofa: 'couch',
  table: 'dining table',
  desk: 'dining table',
  phone: 'cell phone',
  smartphone: 'cell phone',
  'mobile phone': 'cell phone',
  ball: 'sports ball',
  football: 'sports ball',
  'soccer ball': 'sports ball',
  basketball: 'sports ball',
  plant: 'potted plant',
  houseplant: 'potted plant',
  mug: 'cup',
  glass: 'wine glass',
  bag: 'handbag',
  purse: 'handbag',
  rucksack: 'backpack',
  'remote control': 'remote',
  doughnut: 'donut',
  teddy: 'teddy bear',
  'stuffed animal': 'teddy bear',
  'hair dryer': 'hair drier',
  hairdryer: 'hair drier',
  fridge: 'refrigerator',
  racket: 'tennis racket',
  racquet: 'tennis racket',
  ski: 'skis',
  clothing: 'clothes',
  garment: 'clothes',
  outfit: 'clothes',
  shirt: 'clothes',
  dress: 'clothes',
  jacket: 'clothes',
  trousers: 'clothes',
  pants: 'clothes',
};

/** Plurals that the rules below would get wrong. */
const IRREGULAR: Record<string, string> = {
  men: 'man',
  women: 'woman',
  children: 'child',
  people: 'people',
  mice: 'mouse',
  knives: 'knife',
  geese: 'goose',
  oxen: 'ox',
  calves: 'calf',
  skis: 'skis',
  scissors: 'scissors',
  clothes: 'clothes',
  glasses: 'glass',
  buses: 'bus',
  benches: 'bench',
  sandwiches: 'sandwich',
  couches: 'couch',
  ladies: 'lady',
  puppies: 'puppy',
  ponies: 'pony',
  taxis: 'taxi',
  teddies: 'teddy',
  trousers: 'trousers',
  pants: 'pants',
};

/** Words that join concepts: "the rider and the horse", "cats, dogs". */
const JOINERS = /\s*(?:,|;|&|\+|\band\b|\bplus\b|\bwith\b|\bas well as\b|\balong with\b)\s*/;

const lookup = new Map<string, Concept>();
COCO_CLASSES.forEach((name, classIndex) => lookup.set(name, { kind: 'object', name, classIndex }));
for (const [name, channel] of Object.entries(PERSON_PARTS))
  lookup.set(name, { kind: 'part', name: name as PersonPart, channel });
for (const [word, target] of Object.entries(SYNONYMS)) lookup.set(word, lookup.get(target)!);
const LONGEST = Math.max(...[...lookup.keys()].map((k) => k.split(' ').length));

function singular(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word];
  if (lookup.has(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ves') && lookup.has(`${word.slice(0, -3)}f`)) return `${word.slice(0, -3)}f`;
  if (word.endsWith('es') && lookup.has(word.slice(0, -2))) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The concept a phrase of words names (its last word may be plural), or null. */
function conceptOf(words: string[]): Concept | null {
  const phrase = [...words.slice(0, -1), singular(words[words.length - 1]!)].join(' ');
  return lookup.get(phrase) ?? lookup.get(words.join(' ')) ?? null;
}

/** The first concept named in a conjunct, longest phrase first ("teddy bear" before "bear"). */
function findConcept(conjunct: string): Concept | null {
  const words = conjunct.toLowerCase().match(/[a-z]+/g) ?? [];
  for (let len = Math.min(LONGEST, words.length); len >= 1; len--) {
    for (let i = 0; i + len <= words.length; i++) {
      const c = conceptOf(words.slice(i, i + len));
      if (c) return c;
    }
  }
  return null;
}

export class UnknownConceptError extends Error {
  override name = 'UnknownConceptError';
  constructor(
    readonly phrases: string[],
    /** With an open-vocabulary model: the words of those phrases it does not know. */
    readonly words: string[] = [],
  ) {
    super(`No known concept in ${phrases.map((p) => `"${p}"`).join(', ')}`);
  }
}

/** What a prompt may name, in one sentence (for error details and docs). */
export const SUPPORTED_CONCEPTS =
  'person or people (also "man", "woman", "rider", …); person ' +
  `parts: ${Object.keys(PERSON_PARTS).join(', ')}; ` +
  (`the 80 COCO classes: ${COCO_CLASSES.join(', ')}. Plurals and ` +
    'common synonyms ("puppy", "motorbike", "sofa") work; join ' +
    'several with "and".');

/** A conjunct as a phrase for the open-vocabulary model, when it knows every word of it. */
function openConcept(conjunct: string, open: OpenVocabulary | null): Concept | null {
  if (!open || !wordsOf(conjunct).length || unknownWords(open, conjunct).length) return null;
  return { kind: 'open', name: wordsOf(conjunct).join(' ') };
}

/**
 * The distinct concepts a prompt names, in order. Throws UnknownConceptError naming every
 * conjunct that names none (an empty prompt names none either).
 */
export function parseConcepts(prompt: string, open: OpenVocabulary | null = null): Concept[] {
  const conjuncts = prompt
    .split(JOINERS)
    .map((s) => s.trim())
    .filter((s) => /[a-z]/i.test(s));
  if (!conjuncts.length) throw new UnknownConceptError([prompt.trim()]);
  const found: Concept[] = [];
  const unknown: string[] = [];
  for (const c of conjuncts) {
    const concept = findConcept(c) ?? openConcept(c, open);
    if (!concept) unknown.push(c);
    else if (!found.some((f) => f.kind === concept.kind && f.name === concept.name))
      found.push(concept);
  }
  if (unknown.length)
    throw new UnknownConceptError(
      unknown,
      open ? [...new Set(unknown.flatMap((c) => unknownWords(open, c)))] : [],
    );
  return found;
}
