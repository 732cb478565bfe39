//! Texel tuning of the evaluation weights: labelled positions as sparse features, the loss and its gradient,
//! and the optimizers (a later issue adds the data readers and the `arbiter tune` command).

pub mod texel;
