import { describe, expect, it } from 'vitest';
import { chooseSubject, REGION, type Candidate } from './choose';

const GRID = { width: 256, height: 144, previous: null };
const PERSON = 0;
const HORSE = 17;

function candidate(c: Partial<Candidate> & Pick<Candidate, 'box'>): Candidate {
  return { classIndex: PERSON, detScore: 0.6, saliency: 0.5, motion: 0, flow: [0, 0], ...c };
}

describe('chooseSubject', () => {
  it(
    'takes a rider and the horse under them as one subject, even ' +
      'when the saliency model missed the horse',
    () => {
      const rider = candidate({
        box: [110, 20, 140, 70],
        saliency: 0.6,
        motion: 0.8,
        flow: [4, 0],
      });
      const horse = candidate({
        box: [90, 50, 170, 120],
        classIndex: HORSE,
        saliency: 0.05,
        motion: 0.7,
        flow: [4, 0],
      });
      const s = chooseSubject([rider, horse], GRID)!;
      expect(s.members).toHaveLength(2);
      expect(s.box).toEqual([90, 20, 170, 120]);
    },
  );

  it('keeps a static crowd out of a moving dancer, though they touch and are salient', () => {
    const dancer = candidate({
      box: [110, 40, 150, 120],
      saliency: 0.6,
      motion: 0.9,
      flow: [2, -3],
    });
    const crowd = [
      candidate({ box: [60, 30, 118, 120], saliency: 0.5 }),
      candidate({ box: [145, 30, 200, 120], saliency: 0.55 }),
    ];
    const s = chooseSubject([...crowd, dancer], GRID)!;
    expect(s.members).toEqual([dancer]);
  });

  it('lets a salient region held by the subject join it', () => {
    const person = candidate({ box: [100, 20, 150, 130], motion: 0.5, flow: [1, 0] });
    const board = candidate({
      box: [120, 90, 145, 125],
      classIndex: REGION,
      detScore: 0,
      saliency: 0.7,
    });
    expect(chooseSubject([person, board], GRID)!.members).toEqual([person, board]);
  });

  it('keeps to the subject of the key before when a newcomer is no more striking', () => {
    const before = candidate({ box: [20, 40, 70, 110], saliency: 0.5 });
    const newcomer = candidate({ box: [180, 40, 230, 110], saliency: 0.5 });
    expect(
      chooseSubject([newcomer, before], { ...GRID, previous: [22, 40, 72, 110] })!.members,
    ).toEqual([before]);
    // At a cut (no previous subject) the choice is made afresh.
    expect(chooseSubject([newcomer, before], GRID)!.members).toHaveLength(1);
  });

  it('finds no subject in an empty shot: faint, still, small candidates only', () => {
    const faint = candidate({
      box: [5, 5, 15, 12],
      classIndex: REGION,
      detScore: 0,
      saliency: 0.05,
    });
    expect(chooseSubject([faint], GRID)).toBeNull();
    expect(chooseSubject([], GRID)).toBeNull();
  });
});
