// What Swift cannot reach in <spawn.h> and <unistd.h>: glibc's posix_spawn actions and pipe2,
// which Glibc's module map leaves out (they are GNU extensions, declared under _GNU_SOURCE).
#ifndef WB_SPAWN_H
#define WB_SPAWN_H

#include <spawn.h>

// Closes every descriptor from `from` up in the child, so that it inherits only its standard
// input, output and error. Returns 0, or an errno value (ENOSYS where the C library lacks it).
int wb_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

// Changes the child's working folder before it runs. Returns 0, or an errno value (ENOSYS where
// the C library lacks it).
int wb_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

// A pipe whose two ends are closed on exec, made in one step so that no child spawned meanwhile
// by another thread inherits them. Returns 0, or an errno value.
int wb_spawn_pipe(int descriptors[2]);

#endif
