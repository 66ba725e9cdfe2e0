/* glmux test fixture: stands for khrplatform.h. */
