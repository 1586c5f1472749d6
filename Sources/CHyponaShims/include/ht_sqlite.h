#ifndef HT_SQLITE_H
#define HT_SQLITE_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro with a cast ((sqlite3_destructor_type)-1) that Swift cannot import.
sqlite3_destructor_type ht_sqlite_transient(void);

#endif
