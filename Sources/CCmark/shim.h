#ifndef WORKBOOK_CCMARK_SHIM_H
#define WORKBOOK_CCMARK_SHIM_H
#include <cmark.h>
#endif
