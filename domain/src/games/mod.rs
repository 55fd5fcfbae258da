pub mod burgbaumeister;
