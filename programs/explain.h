/* The text of `tlayout explain` (programs/explain.c), shared by the CLI and the
 * Python module. */
#ifndef TLAYOUT_EXPLAIN_H
#define TLAYOUT_EXPLAIN_H

#include "cli.h"

/* The model's account of a valid descriptor, one paragraph per line. */
tl_status explain_model(const tl_desc *d, cli_sb *sb);
/* The vendor's own account (tl_desc_explain_vendor) in a malloc'd buffer the
 * caller frees; "" for a descriptor without a vendor. */
tl_status explain_vendor(const tl_desc *d, char **text);
/* "Axis larod", "TI TIDL-RT", ...: who the vendor account speaks for. */
const char *explain_vendor_name(int vendor);

#endif
