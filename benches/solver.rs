//! Solver benches (being written).
fn main() {}
