/* DML section of the tlayout public API (included by tlayout.h). */
#ifndef TLAYOUT_DML_H
#define TLAYOUT_DML_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
