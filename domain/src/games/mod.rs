pub mod burgbaumeister;
pub mod space_builder;
pub mod wettstreit;
