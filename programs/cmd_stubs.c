/* Commands that other issues fill in. Each is its own function so it can move
 * to programs/cmd_<name>.c unchanged; delete it here when it does. */
#include <stdio.h>

#include "cli.h"

static int not_yet(const char *name, int argc, char **argv)
{
    if (argc > 1 && is_help(argv[1])) {
        printf("usage: tlayout %s ...\n\nNot yet available in this version of tlayout.\n", name);
        return CLI_EXIT_OK;
    }
    fprintf(stderr, "tlayout: %s: not yet available\n", name);
    return CLI_EXIT_USAGE;
}

int cmd_draw(int argc, char **argv) { return not_yet("draw", argc, argv); }

int cmd_explain(int argc, char **argv) { return not_yet("explain", argc, argv); }

int cmd_bench(int argc, char **argv) { return not_yet("bench", argc, argv); }
