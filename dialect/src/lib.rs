//! kc IR core.
