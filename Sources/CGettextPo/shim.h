#ifndef WB_CGETTEXTPO_SHIM_H
#define WB_CGETTEXTPO_SHIM_H
#include <gettext-po.h>
#endif
