/* standin_hint.h - a failed step whose diff differs only in what the
 * stand-in mode decides (nstest(1), STAND-IN DEVICES): the filesystem type
 * (tmpfs, or ext2/ext4 on loop devices), the superblock options, and the
 * numbers the kernel hands out. Such a scenario was most likely written
 * in the other mode, and the verdict says so. */
#ifndef NS_STANDIN_HINT_H
#define NS_STANDIN_HINT_H

/* The hint for a unified diff (expected "-", actual "+"), heap, or NULL
 * when its lines differ in anything else, or not in the type at all:
 * "the lines differ only in filesystem type and what comes with it:
 * written for loop stand-ins, run on tmpfs ones; try --devices=loop"
 * (or the other way round). */
char *ns_standin_hint(const char *diff);

#endif
