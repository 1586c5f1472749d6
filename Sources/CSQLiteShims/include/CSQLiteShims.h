// Typed C entry points Swift cannot import from this library (variadic functions,
// macros with casts). Exported symbols carry the ht_ prefix.
#include "ht_sqlite.h"
