//! Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2012), pure: no I/O, no clock.
//! One call rates one player over one rating period. Each outcome may carry a weight (1 in the
//! paper); a weight scales that game's share of the period's evidence (`v` and `Δ`), so that a
//! game of several players, rated as pairwise outcomes, can count as one game's worth of
//! evidence whatever the number of opponents (see `rating/mod.rs`). With every weight 1 this is
//! exactly the paper's algorithm.

/// The Glicko-2 scale factor between the Glicko scale (1500, 350) and the internal one.
const SCALE: f64 = 173.7178;

/// The system constant τ: how much the volatility may change in a period. The paper suggests
/// 0.3 to 1.2; its example uses 0.5.
pub const TAU: f64 = 0.5;

/// The convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// A rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// σ, the expected fluctuation of the player's strength.
    pub volatility: f64,
}

impl Rating {
    /// An unrated player: 1500, RD 350, σ 0.06 (the paper's suggestion).
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

/// One game of the period against one opponent.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
    /// The game's share of the period's evidence (1 in the paper).
    pub weight: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The player's rating after one rating period with these outcomes (`tau`: the system constant,
/// usually [`TAU`]). With no outcomes only the deviation grows (step 6 of the paper).
pub fn rate(player: Rating, outcomes: &[Outcome], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if outcomes.is_empty() {
        return Rating {
            deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    let mut v_inverse = 0.0;
    let mut sum = 0.0;
    for o in outcomes {
        let mu_j = (o.opponent.rating - 1500.0) / SCALE;
        let phi_j = o.opponent.deviation / SCALE;
        let g_j = g(phi_j);
        let e = expected(mu, mu_j, phi_j);
        v_inverse += o.weight * g_j * g_j * e * (1.0 - e);
        sum += o.weight * g_j * (o.score - e);
    }
    let v = 1.0 / v_inverse;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm on f.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let new_sigma = (big_a / 2.0).exp();
    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    // Step 8: back to the Glicko scale.
    Rating {
        rating: new_mu * SCALE + 1500.0,
        deviation: new_phi * SCALE,
        volatility: new_sigma,
    }
}

#[cfg(test)]
mod tests {
    use super::{rate, Outcome, Rating, TAU};

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn the_papers_worked_example() {
        let player = r(1500.0, 200.0);
        let outcomes = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ]
        .map(|(rating, rd, score)| Outcome {
            opponent: r(rating, rd),
            score,
            weight: 1.0,
        });
        let after = rate(player, &outcomes, TAU);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let after = rate(r(1600.0, 50.0), &[], TAU);
        assert_eq!(after.rating, 1600.0);
        assert!(
            after.deviation > 51.0 && after.deviation < 51.2,
            "{after:?}"
        );
    }

    #[test]
    fn weights_scale_the_evidence_of_a_period() {
        let win = |weight| Outcome {
            opponent: Rating::NEW,
            score: 1.0,
            weight,
        };
        let one = rate(Rating::NEW, &[win(1.0)], TAU);
        // Four wins of a quarter each are one win's worth of evidence.
        let four = rate(Rating::NEW, &[win(0.25); 4], TAU);
        assert!((one.rating - four.rating).abs() < 1e-6, "{one:?} {four:?}");
        assert!((one.deviation - four.deviation).abs() < 1e-6);
        assert!(rate(Rating::NEW, &[win(1.0); 4], TAU).rating > one.rating + 50.0);
    }
}
