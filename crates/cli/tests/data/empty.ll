; The smallest module.
