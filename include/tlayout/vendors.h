/* Vendor sections of the public API. Each vendor keeps its own header. */
#ifndef TLAYOUT_VENDORS_H
#define TLAYOUT_VENDORS_H
#include "tlayout/larod.h"
#include "tlayout/tidl.h"
#include "tlayout/dml.h"
#include "tlayout/rknn.h"
#include "tlayout/trt.h"
#endif
