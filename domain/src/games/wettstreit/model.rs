//! Wettstreit der Baumeister's options, cards, commands, events, views and state.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

/// A building card's id, 0..=39 (see [`CARDS`] and the view's `catalogue`).
pub type Card = u8;

/// All the money in the game (bank and purses together).
pub const TOTAL_TALER: u32 = 90;
/// Every player's starting purse.
pub const STARTING_PURSE: u32 = 10;
/// Saboteur stones in the game.
pub const SABOTEURS: u8 = 5;
/// Cards in the game.
pub const CARD_COUNT: usize = 40;
/// The highest bid accepted: all the money in the game. Nobody can ever pay more, so a higher
/// bid could only end in insolvency; the bound keeps `/moves` listable value by value.
pub const MAX_BID: u32 = TOTAL_TALER;
/// At most this many cards are laid per turn (and a first build lays exactly this many).
pub const CARDS_PER_TURN: u8 = 3;
/// A hand this big may be sabotaged.
pub const HAND_SABOTAGE_MIN: usize = 5;

/// Options of Wettstreit der Baumeister (none yet: the rulebook has no variants).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct WettstreitOptions {}

/// The kind of a building.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitKind)]
pub enum Kind {
    /// Only the leftmost card of a city.
    LeftCornerTower,
    /// Only the rightmost card of a city.
    RightCornerTower,
    Tower,
    /// Brings income: its coin symbols pay 1 Taler each per turn once built.
    CityGate,
    /// At most one per city.
    TownHall,
    Church,
}

impl Kind {
    /// Towers and corner towers count as the same kind for "never two of a kind side by side".
    pub fn family(self) -> u8 {
        match self {
            Kind::LeftCornerTower | Kind::RightCornerTower | Kind::Tower => 0,
            Kind::CityGate => 1,
            Kind::TownHall => 2,
            Kind::Church => 3,
        }
    }

    pub fn is_corner_tower(self) -> bool {
        matches!(self, Kind::LeftCornerTower | Kind::RightCornerTower)
    }
}

/// One printed card: its kind and point value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardSpec {
    pub kind: Kind,
    pub value: u8,
}

const fn spec(kind: Kind, value: u8) -> CardSpec {
    CardSpec { kind, value }
}

/// The 40 cards, by id.
pub const CARDS: [CardSpec; CARD_COUNT] = {
    use Kind::*;
    [
        spec(LeftCornerTower, 1),
        spec(LeftCornerTower, 1),
        spec(LeftCornerTower, 2),
        spec(LeftCornerTower, 2),
        spec(LeftCornerTower, 3),
        spec(RightCornerTower, 1),
        spec(RightCornerTower, 1),
        spec(RightCornerTower, 2),
        spec(RightCornerTower, 2),
        spec(RightCornerTower, 3),
        spec(Tower, 1),
        spec(Tower, 1),
        spec(Tower, 2),
        spec(Tower, 2),
        spec(Tower, 3),
        spec(Tower, 3),
        spec(CityGate, 2),
        spec(CityGate, 2),
        spec(CityGate, 3),
        spec(CityGate, 3),
        spec(CityGate, 3),
        spec(CityGate, 4),
        spec(CityGate, 4),
        spec(CityGate, 4),
        spec(CityGate, 5),
        spec(CityGate, 5),
        spec(TownHall, 5),
        spec(TownHall, 5),
        spec(TownHall, 6),
        spec(TownHall, 6),
        spec(TownHall, 7),
        spec(TownHall, 7),
        spec(Church, 4),
        spec(Church, 5),
        spec(Church, 5),
        spec(Church, 6),
        spec(Church, 6),
        spec(Church, 7),
        spec(Church, 8),
        spec(Church, 9),
    ]
};

pub fn kind_of(card: Card) -> Kind {
    CARDS[card as usize].kind
}

pub fn value_of(card: Card) -> u8 {
    CARDS[card as usize].value
}

/// Shields against the saboteur: one on every tower and corner tower.
pub fn shields_of(card: Card) -> u8 {
    u8::from(kind_of(card).family() == 0)
}

/// Coin symbols on a city gate (2 on values 2–3, 1 on values 4–5); none on other cards.
pub fn coins_of(card: Card) -> u8 {
    match CARDS[card as usize] {
        CardSpec {
            kind: Kind::CityGate,
            value,
        } if value <= 3 => 2,
        CardSpec {
            kind: Kind::CityGate,
            ..
        } => 1,
        _ => 0,
    }
}

/// The two stacks in the middle of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitStack)]
pub enum Stack {
    /// Face up: its top card is visible to all.
    Open,
    /// Face down: nobody sees its cards (the auctioneer sees the top card while auctioning it).
    FaceDown,
}

/// A face of the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitDieFace)]
pub enum DieFace {
    One,
    Two,
    Three,
    Four,
    Five,
    Saboteur,
}

impl DieFace {
    /// The face for a uniform draw 0..6.
    pub fn from_index(i: u64) -> DieFace {
        [
            DieFace::One,
            DieFace::Two,
            DieFace::Three,
            DieFace::Four,
            DieFace::Five,
            DieFace::Saboteur,
        ][i as usize]
    }

    /// The pips (the saboteur face has none).
    pub fn pips(self) -> u8 {
        match self {
            DieFace::One => 1,
            DieFace::Two => 2,
            DieFace::Three => 3,
            DieFace::Four => 4,
            DieFace::Five => 5,
            DieFace::Saboteur => 0,
        }
    }
}

// ---- commands -------------------------------------------------------------------------------

/// Step 1 of a turn: roll the die for income.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RollIncomeDie {}

/// After rolling the saboteur face with the supply empty: take a saboteur from that player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TakeSaboteurFrom {
    pub from: Seat,
}

/// Step 2, first half: put the top card of a non-empty stack up for auction. From the face-down
/// stack the card is then shown to you alone; `MakeOpeningBid` follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionTopCard {
    pub stack: Stack,
}

/// Step 2, second half: the auctioneer's opening bid on the card put up for auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MakeOpeningBid {
    /// 1..=90. It may exceed your money (insolvency is found only at payment).
    #[schema(minimum = 1, maximum = 90)]
    pub amount: u32,
}

/// Outbid the highest bid of the running auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RaiseBid {
    /// Higher than the highest bid, at most 90.
    #[schema(minimum = 1, maximum = 90)]
    pub amount: u32,
}

/// Leave the running auction (a pass is final).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PassBid {}

/// Step 3, first build: found your city with exactly three cards (at most three may be laid per
/// turn and a first build needs at least three), listed left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FoundCity {
    pub cards: Vec<Card>,
}

/// Step 3: lay one hand card into your city (up to three per turn, one command each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildCard {
    pub card: Card,
    /// The city slot, counted from the current leftmost card (0): `-1` extends the city to the
    /// left, the city's length extends it to the right, an empty slot in between fills a gap.
    pub slot: i16,
}

/// Step 3, instead of building: send a saboteur against a built card of another player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SabotageBuilding {
    pub target: Seat,
    pub card: Card,
}

/// Step 3, instead of building: send a saboteur against the hand of a player holding 5 or more
/// cards; a random card of it goes under the lower stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SabotageHand {
    pub target: Seat,
}

/// The owner of a sabotaged building (die 3–5) pays its value to the saboteur's owner to keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PayToKeepBuilding {}

/// The owner of a sabotaged building (die 3–5) will not pay: the building is removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LetBuildingFall {}

/// Both stacks are equally low: choose which one the removed card goes under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PutCardUnderStack {
    pub stack: Stack,
}

/// End step 3 (build or sabotage, which is optional) and so the turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinishBuildStep {}

tagged_union! {
    /// A command of Wettstreit der Baumeister.
    pub enum WettstreitCommand {
        RollIncomeDie,
        TakeSaboteurFrom,
        AuctionTopCard,
        MakeOpeningBid,
        RaiseBid,
        PassBid,
        FoundCity,
        BuildCard,
        SabotageBuilding,
        SabotageHand,
        PayToKeepBuilding,
        LetBuildingFall,
        PutCardUnderStack,
        FinishBuildStep,
    }
}

// ---- events ---------------------------------------------------------------------------------

/// The game began: 10 secret Taler each, the rest in the bank, 5 saboteurs in the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitGameStarted {
    pub players: u8,
    /// Drawn at random.
    pub starting_seat: Seat,
}

/// The 40 cards were shuffled into two stacks of 20 (each listed bottom to top).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitCardsShuffled {
    /// The open stack. `null` for all but auditors until the game ends (only its top card is
    /// visible, told by `OpenStackTopShown`).
    pub open: Option<Vec<Card>>,
    /// The face-down stack. `null` for all but auditors until the game ends.
    pub face_down: Option<Vec<Card>>,
}

/// The open stack shows a new top card (`null`: the open stack is empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OpenStackTopShown {
    pub card: Option<Card>,
}

/// Income: the die and the coins on the player's built gates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IncomeRolled {
    pub seat: Seat,
    pub die: DieFace,
    /// Coin symbols on the player's built city gates (1 Taler each).
    pub gate_coins: u8,
    /// Taler actually taken from the bank (less than pips + coins only when the bank runs
    /// short). Secret: `null` for everyone but this seat, since it tells about the bank.
    pub taler: Option<u32>,
}

/// A saboteur stone went in front of the player, from the supply (`from` null) or taken from
/// another player because the supply was empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SaboteurTaken {
    pub seat: Seat,
    pub from: Option<Seat>,
}

/// The auctioneer put the top card of a stack up for auction (the first half of step 2). The
/// opening bid follows as `AuctionOpened`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardPutUpForAuction {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// The card. From the face-down stack only the auctioneer sees it (`null` for the others):
    /// they look at it before they bid.
    pub card: Option<Card>,
}

/// The auctioneer made the opening bid on the card put up for auction; bidding goes round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionOpened {
    pub auctioneer: Seat,
    pub stack: Stack,
    pub opening_bid: u32,
    /// The card. From the face-down stack only the auctioneer sees it (`null` for the others).
    pub card: Option<Card>,
}

/// A bidder outbid the highest bid. Bids are announced aloud at the table, so they are public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidRaised {
    pub seat: Seat,
    pub amount: u32,
}

/// A bidder left the auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidPassed {
    pub seat: Seat,
}

/// Bidding came back to the outbid auctioneer of a face-down card, who named its kind (not its
/// value) to all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardKindAnnounced {
    pub auctioneer: Seat,
    pub kind: Kind,
}

/// The highest remaining bidder could not pay their bid: they said so and paid all their money
/// to the bank; the next highest bidder is asked to pay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidderInsolvent {
    pub seat: Seat,
    pub bid: u32,
    /// All the money they had, now in the bank. Secret: `null` for everyone but this seat.
    pub forfeited: Option<u32>,
}

/// The auction's card went into the buyer's hand against payment: half the price (rounded down)
/// to the auctioneer, the rest to the bank; all to the bank when the auctioneer bought it or
/// went insolvent in this auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionWon {
    pub auctioneer: Seat,
    pub buyer: Seat,
    pub stack: Stack,
    pub price: u32,
    pub to_auctioneer: u32,
    pub to_bank: u32,
    /// True when the auctioneer named the face-down card's kind during the bidding.
    pub kind_announced: bool,
    /// The card. From the face-down stack only the buyer and the auctioneer know it (`null` for
    /// the others).
    pub card: Option<Card>,
    /// Its kind: `null` for those who do not know the card, unless it was announced.
    pub kind: Option<Kind>,
}

/// Nobody who could get the card can pay for it (every bidder left is insolvent, or nobody
/// else bid): the card leaves the game face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionCardRemoved {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// True when the auctioneer named the face-down card's kind during the bidding.
    pub kind_announced: bool,
    /// The card. From the face-down stack only the auctioneer knows it (`null` for the others).
    pub card: Option<Card>,
    /// Its kind: `null` for those who do not know the card, unless it was announced.
    pub kind: Option<Kind>,
}

/// A sabotaged card went under a stack (the lower one, or the chosen one when both were
/// equally low). It was shown to all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardPutUnderStack {
    pub stack: Stack,
    pub card: Card,
}

/// The player laid their first three cards, left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CityFounded {
    pub seat: Seat,
    pub cards: Vec<Card>,
}

/// The player laid a card into their city at `slot` (as counted before laying it: `-1` = new
/// leftmost card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardBuilt {
    pub seat: Seat,
    pub card: Card,
    pub slot: i16,
}

/// A saboteur attacked a built card and the die fell: saboteur face = removed; 1–2 = no effect;
/// 3–5 = the owner chooses to pay its value or lose it. The saboteur returns to the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingSabotaged {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
    pub die: DieFace,
}

/// The owner paid the building's value to the saboteur's owner and keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingRansomed {
    pub owner: Seat,
    pub paid_to: Seat,
    pub card: Card,
    pub amount: u32,
}

/// A building was removed from its city, leaving a gap (a removed end card shortens the city).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingRemoved {
    pub owner: Seat,
    pub card: Card,
}

/// A saboteur drew a random card from a hand of 5 or more and showed it to all. The saboteur
/// returns to the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HandSabotaged {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
}

/// A turn began. In the final round a turn is only laying up to three cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitTurnBegan {
    pub seat: Seat,
    pub final_round: bool,
}

/// One player's final score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCityScore)]
pub struct CityScore {
    pub seat: Seat,
    /// Sum of the built cards' values.
    pub buildings: i64,
    /// No gap and a corner tower at each end: only then the bonuses below count.
    pub complete: bool,
    /// +10: the town hall exactly in the middle.
    pub town_hall_centred: i64,
    /// +5: as many churches left of the town hall as right of it, at least one a side.
    pub churches_balanced: i64,
    /// +5: both corner towers of the same value.
    pub corner_towers_matched: i64,
    /// Minus the values of the cards still in hand.
    pub hand_penalty: i64,
    pub total: i64,
}

/// The final round is over: scores per seat and the winners (a tie is a shared win).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitGameEnded {
    pub scores: Vec<CityScore>,
    pub winners: Vec<Seat>,
}

/// The final scores, as the view shows them (the event's own schema carries its `type` tag, so
/// the view has a schema of its own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitResult {
    pub scores: Vec<CityScore>,
    pub winners: Vec<Seat>,
}

impl From<&WettstreitGameEnded> for WettstreitResult {
    fn from(e: &WettstreitGameEnded) -> Self {
        WettstreitResult {
            scores: e.scores.clone(),
            winners: e.winners.clone(),
        }
    }
}

tagged_union! {
    /// An event of Wettstreit der Baumeister.
    pub enum WettstreitEvent {
        WettstreitGameStarted,
        WettstreitCardsShuffled,
        OpenStackTopShown,
        IncomeRolled,
        SaboteurTaken,
        CardPutUpForAuction,
        AuctionOpened,
        BidRaised,
        BidPassed,
        CardKindAnnounced,
        BidderInsolvent,
        AuctionWon,
        AuctionCardRemoved,
        CardPutUnderStack,
        CityFounded,
        CardBuilt,
        BuildingSabotaged,
        BuildingRansomed,
        BuildingRemoved,
        HandSabotaged,
        WettstreitTurnBegan,
        WettstreitGameEnded,
    }
}

// ---- view -----------------------------------------------------------------------------------

/// A card as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCardFace)]
pub struct CardFace {
    pub card: Card,
    pub kind: Kind,
    pub value: u8,
}

impl CardFace {
    pub fn of(card: Card) -> Self {
        CardFace {
            card,
            kind: kind_of(card),
            value: value_of(card),
        }
    }
}

/// One printed card (the static list, so clients can draw any card id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCatalogueEntry)]
pub struct CatalogueEntry {
    pub id: Card,
    pub kind: Kind,
    pub value: u8,
    pub shields: u8,
    pub coins: u8,
}

/// A stack as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitStackView)]
pub struct StackView {
    pub count: u8,
    /// The top card: always for the open stack; for the face-down stack only for its auctioneer
    /// during their auction (and auditors).
    pub top: Option<CardFace>,
}

/// The running auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitAuctionView)]
pub struct AuctionView {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// The card, when the viewer may see it.
    pub top: Option<CardFace>,
    /// The kind named by the auctioneer of a face-down card.
    pub announced_kind: Option<Kind>,
    /// 0 until the auctioneer made the opening bid.
    pub high_bid: u32,
    /// The auctioneer until somebody outbids them.
    pub high_bidder: Seat,
    /// Whose bid it is (the auctioneer's, for the opening bid).
    pub next_bidder: Seat,
    /// Each seat's last bid (public: bids are spoken aloud).
    pub bids: Vec<Option<u32>>,
    pub passed: Vec<Seat>,
}

/// A sabotaged building whose owner must choose to pay or lose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitRansomView)]
pub struct RansomView {
    pub saboteur: Seat,
    pub owner: Seat,
    pub building: CardFace,
    pub price: u32,
}

/// A sabotaged card waiting to go under a stack, both being equally low: `chooser` picks the
/// stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCardUnderView)]
pub struct CardUnderView {
    pub chooser: Seat,
    pub card: CardFace,
}

/// The cards out of the game (auctioned cards nobody could pay for), as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitRemovedView)]
pub struct RemovedView {
    pub count: u8,
    /// The removed cards the viewer knows (open-stack cards; face-down ones they auctioned).
    pub cards: Vec<CardFace>,
    /// Kinds announced for removed cards the viewer does not know otherwise.
    pub announced_kinds: Vec<Kind>,
}

/// One player as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitPlayerView)]
pub struct PlayerView {
    pub seat: Seat,
    /// Secret: only the owner (and auditors) see it.
    pub money: Option<u32>,
    pub saboteurs: u8,
    pub hand_count: u8,
    /// The hand cards the viewer knows (all of them for the owner; for others those bought
    /// from the open stack, or seen as the auctioneer).
    pub hand: Vec<CardFace>,
    /// Kinds announced for hand cards the viewer does not know otherwise.
    pub announced_kinds: Vec<Kind>,
    /// The city left to right; `null` is a gap left by a saboteur.
    pub city: Vec<Option<CardFace>>,
    pub shields: u8,
    pub gate_coins: u8,
    /// Sum of the built cards' values (bonuses and hand count only at the end).
    pub city_value: i64,
}

/// The step of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitPhase)]
pub enum Phase {
    NotStarted,
    /// The player whose turn it is rolls for income.
    Income,
    /// The saboteur face came up with the supply empty: take one from another player.
    TakeSaboteur,
    /// The player whose turn it is chooses the stack whose top card they auction.
    Auction,
    /// The auctioneer, having seen the card, makes the opening bid.
    OpeningBid,
    /// Bidding goes round.
    Bidding,
    /// Bidding is over; payment is settled at once (never waits).
    AuctionClosing,
    /// The owner of a sabotaged building chooses to pay or lose it.
    OwnerChoice,
    /// A sabotaged card is going under the lower stack (waits only when both are equally low).
    CardUnder,
    /// Build or sabotage (in the final round: build).
    Build,
    /// The turn is over; the next begins at once (never waits).
    TurnOver,
    Ended,
}

/// The board of Wettstreit der Baumeister as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitView {
    pub phase: Phase,
    /// The seat whose turn it is (absent before start and after the end).
    pub turn: Option<Seat>,
    /// Who must act now: the player whose turn it is, or the bidder, or the owner of a sabotaged
    /// building, or who chooses a stack.
    pub to_act: Vec<Seat>,
    /// The final round is being played.
    pub final_round: bool,
    /// The seat who auctioned a stack's last card: the final round ends with their turn.
    pub final_round_ends_with: Option<Seat>,
    /// Cards laid this turn (at most 3).
    pub built_this_turn: u8,
    pub open_stack: StackView,
    pub face_down_stack: StackView,
    pub saboteur_supply: u8,
    /// The bank's Taler; only auditors count it (it would tell the sum of the purses).
    pub bank: Option<u32>,
    /// The last income roll.
    pub last_die: Option<DieFace>,
    pub auction: Option<AuctionView>,
    pub ransom: Option<RansomView>,
    pub card_under: Option<CardUnderView>,
    /// Cards out of the game.
    pub removed: RemovedView,
    pub players: Vec<PlayerView>,
    /// Scores once the game has ended.
    pub result: Option<WettstreitResult>,
    /// Every card id with its kind, value, shields and coins.
    pub catalogue: Vec<CatalogueEntry>,
}

// ---- state ----------------------------------------------------------------------------------

/// A card in a hand (or out of the game), and who knows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandCard {
    pub card: Card,
    /// Everyone saw it (bought from the open stack).
    pub public: bool,
    /// Its kind was announced.
    pub kind_public: bool,
    /// Seats who saw it (a bit per seat): the auctioneer of a face-down card.
    pub seen_by: u8,
}

impl HandCard {
    pub fn known_to(&self, seat: Seat) -> bool {
        self.public || self.seen_by & (1 << seat) != 0
    }
}

/// The running auction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Auction {
    pub auctioneer: Seat,
    pub stack: Stack,
    pub card: Card,
    pub high_bid: u32,
    pub high_bidder: Seat,
    /// Each seat's last bid; an insolvent bidder's is struck.
    pub bids: Vec<Option<u32>>,
    pub passed: Vec<bool>,
    pub next: Seat,
    pub announced: bool,
    /// The auctioneer could not pay their own bid: no half for them.
    pub auctioneer_insolvent: bool,
}

/// A sabotaged building awaiting its owner's choice.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ransom {
    pub saboteur: Seat,
    pub owner: Seat,
    pub card: Card,
}

/// A sabotaged card going under the lower stack (then the turn is over).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardUnder {
    pub card: Card,
    /// Chooses the stack when both are equally low: the saboteur's owner.
    pub chooser: Seat,
}

/// The whole truth (the server's; views show what a viewer may see of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub players: u8,
    pub phase: Phase,
    pub turn: Seat,
    /// Bottom to top.
    pub open: Vec<Card>,
    /// Bottom to top.
    pub face_down: Vec<Card>,
    /// The open top card as last announced by `OpenStackTopShown`.
    pub open_top_shown: Option<Card>,
    pub bank: u32,
    pub purses: Vec<u32>,
    pub hands: Vec<Vec<HandCard>>,
    /// Left to right; `None` is a gap. Never starts or ends with a gap.
    pub cities: Vec<Vec<Option<Card>>>,
    pub saboteurs: Vec<u8>,
    pub supply: u8,
    pub built_this_turn: u8,
    pub last_die: Option<DieFace>,
    pub auction: Option<Auction>,
    pub ransom: Option<Ransom>,
    pub card_under: Option<CardUnder>,
    /// Auctioned cards nobody could pay for: out of the game, face down.
    pub removed: Vec<HandCard>,
    /// Who auctioned a stack's last card (the final round ends with them).
    pub final_trigger: Option<Seat>,
    pub final_round: bool,
    pub ended: Option<WettstreitGameEnded>,
}

impl Default for State {
    fn default() -> Self {
        State {
            players: 0,
            phase: Phase::NotStarted,
            turn: 0,
            open: Vec::new(),
            face_down: Vec::new(),
            open_top_shown: None,
            bank: 0,
            purses: Vec::new(),
            hands: Vec::new(),
            cities: Vec::new(),
            saboteurs: Vec::new(),
            supply: 0,
            built_this_turn: 0,
            last_die: None,
            auction: None,
            ransom: None,
            card_under: None,
            removed: Vec::new(),
            final_trigger: None,
            final_round: false,
            ended: None,
        }
    }
}

impl State {
    pub fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players
    }

    pub fn stack(&self, stack: Stack) -> &Vec<Card> {
        match stack {
            Stack::Open => &self.open,
            Stack::FaceDown => &self.face_down,
        }
    }

    pub fn stack_mut(&mut self, stack: Stack) -> &mut Vec<Card> {
        match stack {
            Stack::Open => &mut self.open,
            Stack::FaceDown => &mut self.face_down,
        }
    }

    /// The lower stack, or `None` when both are equally high.
    pub fn lower_stack(&self) -> Option<Stack> {
        use std::cmp::Ordering::*;
        match self.open.len().cmp(&self.face_down.len()) {
            Less => Some(Stack::Open),
            Greater => Some(Stack::FaceDown),
            Equal => None,
        }
    }

    pub fn shields(&self, seat: Seat) -> u8 {
        self.cities[seat as usize]
            .iter()
            .flatten()
            .map(|&c| shields_of(c))
            .sum()
    }

    pub fn gate_coins(&self, seat: Seat) -> u8 {
        self.cities[seat as usize]
            .iter()
            .flatten()
            .map(|&c| coins_of(c))
            .sum()
    }

    pub fn hand_has(&self, seat: Seat, card: Card) -> bool {
        self.hands[seat as usize].iter().any(|h| h.card == card)
    }

    pub fn take_from_hand(&mut self, seat: Seat, card: Card) {
        self.hands[seat as usize].retain(|h| h.card != card);
    }
}
