//! kc front end: `.k` source -> AST -> checked AST -> kernel-dialect IR, and the driver.
