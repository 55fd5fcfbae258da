pub mod burgbaumeister;
pub mod carcassonne;
pub mod mauerbauer;
pub mod space_builder;
pub mod wettstreit;
