pub mod burgbaumeister;
pub mod wettstreit;
