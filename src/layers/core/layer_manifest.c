/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: placeholder while the core is written (layers.h).
 */
#include "layers/core/layers.h"
