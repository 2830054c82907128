/* The parts of the module, in the order they are initialised (module.c).
 * One line per file of python/src that binds an area of the library. */
TLPY_PART(errors)
TLPY_PART(desc)
TLPY_PART(convert)
TLPY_PART(view)
TLPY_PART(dlpack)
TLPY_PART(threshold)
TLPY_PART(tidl)
TLPY_PART(bench)
TLPY_PART(image)
TLPY_PART(post)
TLPY_PART(detect)
