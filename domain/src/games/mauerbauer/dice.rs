//! The three dice and what they leave to the player.
//!
//! The tower die has two faces of each tower colour; each house die one face per house colour
//! and a "?" (free choice). A roll names colours; the player decides where each goes, and a
//! colour that has run out is replaced by one of the player's choice. Towers and houses follow
//! the same rule, so one function lists the placements for both.

use crate::rng::GameRng;

use super::pieces::{total, Colour, HouseDie, TowerColour};

pub fn roll_tower_die(rng: &mut GameRng) -> TowerColour {
    const FACES: [TowerColour; 6] = [
        TowerColour::White,
        TowerColour::White,
        TowerColour::Grey,
        TowerColour::Grey,
        TowerColour::Black,
        TowerColour::Black,
    ];
    FACES[rng.index(FACES.len())]
}

pub fn roll_house_die(rng: &mut GameRng) -> HouseDie {
    HouseDie::FACES[rng.index(HouseDie::FACES.len())]
}

/// A piece on a spot (a vertex for a tower, a field for a house).
pub type Piece<C> = (u8, C);

/// Every way to place pieces on `spots` as `dice` ask (`Some(colour)`: a die's colour; `None`:
/// a free choice), given the `supply` by colour:
/// - as many pieces as there are spots, dice and pieces in the supply (each die serves one
///   spot; the player picks which);
/// - each piece has its die's colour, unless that die is a free choice or its colour has run
///   out (none left once the other pieces are placed), when any colour in the supply will do.
///
/// Each placement once, spots ascending; placements in order of spots, then colours.
pub fn placements<C: Colour>(
    spots: &[u8],
    dice: &[Option<C>],
    supply: &[u8],
) -> Vec<Vec<Piece<C>>> {
    let mut spots = spots.to_vec();
    spots.sort();
    spots.dedup();
    let k = spots.len().min(dice.len()).min(total(supply) as usize);
    let mut found = Vec::new();
    for chosen in 0u32..1 << spots.len() {
        if chosen.count_ones() as usize != k {
            continue;
        }
        let on: Vec<u8> = (0..spots.len())
            .filter(|i| chosen & 1 << i != 0)
            .map(|i| spots[i])
            .collect();
        for colours in tuples::<C>(k) {
            let placement: Vec<Piece<C>> = on.iter().copied().zip(colours).collect();
            if fits_supply(&placement, supply)
                && served(&placement, dice, supply, 0, 0)
                && !found.contains(&placement)
            {
                found.push(placement);
            }
        }
    }
    found
}

/// Every sequence of `k` colours, in `Colour::ALL` order.
fn tuples<C: Colour>(k: usize) -> Vec<Vec<C>> {
    (0..k).fold(vec![Vec::new()], |acc, _| {
        acc.into_iter()
            .flat_map(|prefix| {
                C::ALL.iter().map(move |&c| {
                    let mut next = prefix.clone();
                    next.push(c);
                    next
                })
            })
            .collect()
    })
}

fn fits_supply<C: Colour>(placement: &[Piece<C>], supply: &[u8]) -> bool {
    C::ALL.iter().all(|&c| {
        let wanted = placement.iter().filter(|(_, pc)| *pc == c).count();
        wanted <= usize::from(supply[c.index()])
    })
}

/// Can the pieces from `next` on each be given a die of their own (none in `used`) that allows
/// their colour?
fn served<C: Colour>(
    placement: &[Piece<C>],
    dice: &[Option<C>],
    supply: &[u8],
    next: usize,
    used: u32,
) -> bool {
    let Some(&(_, colour)) = placement.get(next) else {
        return true;
    };
    dice.iter().enumerate().any(|(d, &die)| {
        used & 1 << d == 0
            && allows(die, colour, placement, next, supply)
            && served(placement, dice, supply, next + 1, used | 1 << d)
    })
}

/// Does `die` allow piece `index` of `placement` to have `colour`?
fn allows<C: Colour>(
    die: Option<C>,
    colour: C,
    placement: &[Piece<C>],
    index: usize,
    supply: &[u8],
) -> bool {
    match die {
        None => true,
        Some(asked) if asked == colour => true,
        Some(asked) => {
            let taken_by_others = placement
                .iter()
                .enumerate()
                .filter(|&(i, &(_, c))| i != index && c == asked)
                .count();
            usize::from(supply[asked.index()]) <= taken_by_others
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pieces::HouseColour::{self, *};
    use super::super::pieces::TowerColour::{Black, Grey, White};
    use super::*;

    const FULL_TOWERS: [u8; 3] = [10, 10, 10];
    const FULL_HOUSES: [u8; 5] = [12; 5];

    #[test]
    fn two_free_ends_take_the_die_colour_on_either_end_and_a_free_tower_on_the_other() {
        let options = placements(&[4, 9], &[Some(Black), None], &FULL_TOWERS);
        // Black on 4 and any on 9, or any on 4 and black on 9: 3 + 3 − 1 (black on both).
        assert_eq!(options.len(), 5);
        assert!(options.contains(&vec![(4, Black), (9, Grey)]));
        assert!(options.contains(&vec![(4, White), (9, Black)]));
        assert!(options.contains(&vec![(4, Black), (9, Black)]));
        assert!(!options.contains(&vec![(4, White), (9, Grey)]));
    }

    #[test]
    fn one_free_end_takes_the_die_colour() {
        let options = placements(&[7], &[Some(Grey)], &FULL_TOWERS);
        assert_eq!(options, vec![vec![(7, Grey)]]);
    }

    #[test]
    fn a_run_out_tower_colour_is_replaced_by_choice() {
        let options = placements(&[7], &[Some(Grey)], &[2, 0, 1]);
        assert_eq!(options, vec![vec![(7, White)], vec![(7, Black)]]);
        // The last white tower goes on one end; the free tower may not be a second white.
        let options = placements(&[3, 8], &[Some(White), None], &[1, 5, 5]);
        assert!(options.contains(&vec![(3, White), (8, Grey)]));
        assert!(options.contains(&vec![(3, Black), (8, White)]));
        assert!(!options.contains(&vec![(3, White), (8, White)]));
        assert!(!options.contains(&vec![(3, Grey), (8, Black)]));
    }

    #[test]
    fn the_last_tower_goes_on_either_end() {
        let options = placements(&[3, 8], &[Some(White), None], &[0, 1, 0]);
        assert_eq!(options, vec![vec![(3, Grey)], vec![(8, Grey)]]);
    }

    #[test]
    fn the_player_decides_which_house_colour_goes_on_which_side() {
        let options = placements(&[10, 11], &[Some(Red), Some(Blue)], &FULL_HOUSES);
        assert_eq!(
            options,
            vec![vec![(10, Blue), (11, Red)], vec![(10, Red), (11, Blue)]]
        );
        let same = placements(&[10, 11], &[Some(Red), Some(Red)], &FULL_HOUSES);
        assert_eq!(same, vec![vec![(10, Red), (11, Red)]]);
    }

    #[test]
    fn a_question_mark_is_a_free_choice() {
        let options = placements(&[10, 11], &[Some(Green), None], &FULL_HOUSES);
        assert_eq!(
            options.len(),
            9,
            "green on one side, any colour on the other"
        );
        let both = placements::<HouseColour>(&[10, 11], &[None, None], &FULL_HOUSES);
        assert_eq!(both.len(), 25);
    }

    #[test]
    fn a_rim_wall_takes_one_house_of_either_rolled_colour() {
        let options = placements(&[0], &[Some(Pink), Some(Yellow)], &FULL_HOUSES);
        assert_eq!(options, vec![vec![(0, Yellow)], vec![(0, Pink)]]);
        let free = placements(&[0], &[Some(Pink), None], &FULL_HOUSES);
        assert_eq!(free.len(), 5);
    }

    #[test]
    fn a_run_out_house_colour_is_replaced_by_choice() {
        let mut supply = FULL_HOUSES;
        supply[HouseColour::Red.index()] = 1;
        let options = placements(&[10, 11], &[Some(Red), Some(Red)], &supply);
        // One red (the last) on either side, any other colour on the other.
        assert_eq!(options.len(), 8);
        assert!(options
            .iter()
            .all(|p| p.iter().filter(|(_, c)| *c == Red).count() == 1));
    }

    #[test]
    fn the_last_house_goes_on_either_side() {
        let options = placements(&[10, 11], &[Some(Red), Some(Blue)], &[0, 0, 1, 0, 0]);
        assert_eq!(options, vec![vec![(10, Blue)], vec![(11, Blue)]]);
    }

    #[test]
    fn the_dice_are_fair() {
        let mut rng = GameRng::from_seed(3);
        let mut towers = [0; 3];
        let mut houses = [0; 6];
        for _ in 0..6000 {
            towers[roll_tower_die(&mut rng).index()] += 1;
            houses[roll_house_die(&mut rng) as usize] += 1;
        }
        assert!(
            towers.iter().all(|&n| (1800..2200).contains(&n)),
            "{towers:?}"
        );
        assert!(
            houses.iter().all(|&n| (850..1150).contains(&n)),
            "{houses:?}"
        );
    }
}
