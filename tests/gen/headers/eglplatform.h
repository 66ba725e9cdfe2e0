/* glmux test fixture: stands for eglplatform.h. */
