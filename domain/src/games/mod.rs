pub mod burgbaumeister;
pub mod carcassonne;
pub mod space_builder;
pub mod wettstreit;
