pub mod burgbaumeister;
pub mod space_builder;
