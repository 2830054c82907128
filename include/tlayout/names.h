/* Name suggestions of the tlayout public API (included by tlayout.h): the
 * "did you mean" that the library's own messages use, for tools built on it. */
#ifndef TLAYOUT_NAMES_H
#define TLAYOUT_NAMES_H

#include <stddef.h>

#include "tlayout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name among names[0..count-1] closest to word, or NULL when none is close:
 * at most 2 edits away (insert, delete, replace, swap two neighbours) and fewer
 * edits than word has characters. Case-insensitive; the first of equals wins. */
TL_API const char *tl_closest_name(const char *word, const char *const *names, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* TLAYOUT_NAMES_H */
