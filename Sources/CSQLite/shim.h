#ifndef WB_CSQLITE_SHIM_H
#define WB_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
