import { describe, expect, it } from 'vitest';
import { COCO_CLASSES, parseConcepts, UnknownConceptError } from './concepts';

const names = (p: string) => parseConcepts(p).map((c) => c.name);

describe('parseConcepts', () => {
  it('maps class names, plurals and synonyms to COCO classes', () => {
    expect(names('cows')).toEqual(['cow']);
    expect(names('a puppy')).toEqual(['dog']);
    expect(names('the guy')).toEqual(['person']);
    expect(names('motorbike')).toEqual(['motorcycle']);
    expect(names('People')).toEqual(['person']);
    expect(names('the red car')).toEqual(['car']);
    expect(names('two teddy bears')).toEqual(['teddy bear']);
    expect(names('knives')).toEqual(['knife']);
    expect(names('buses')).toEqual(['bus']);
    expect(names('ponies')).toEqual(['horse']);
    expect(names('the traffic lights')).toEqual(['traffic light']);
  });

  it('finds person parts of the parts model', () => {
    expect(parseConcepts('her hair')).toEqual([{ kind: 'part', name: 'hair', channel: 2 }]);
    expect(names('skin and clothes')).toEqual(['skin', 'clothes']);
  });

  it('adds up sums, once each', () => {
    expect(names('the rider and the horse')).toEqual(['person', 'horse']);
    expect(names('cats, dogs & birds')).toEqual(['cat', 'dog', 'bird']);
    expect(names('a woman with her dog and another dog')).toEqual(['person', 'dog']);
  });

  it('keeps class indices in the detector order', () => {
    const [dog] = parseConcepts('dog');
    expect(dog).toEqual({ kind: 'object', name: 'dog', classIndex: COCO_CLASSES.indexOf('dog') });
    expect(COCO_CLASSES).toHaveLength(80);
  });

  it('refuses a conjunct that names nothing it knows, naming it', () => {
    expect(() => parseConcepts('unicorn')).toThrow(UnknownConceptError);
    expect(() => parseConcepts('the cat and the unicorn')).toThrow(/"the unicorn"/);
    expect(() => parseConcepts('   ')).toThrow(UnknownConceptError);
    expect(() => parseConcepts('!!!')).toThrow(UnknownConceptError);
  });
});
