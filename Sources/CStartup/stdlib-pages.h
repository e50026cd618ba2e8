/* Made by `make startup-order` (.ci/startup-order) for split.c: the pages of the standard
 * library's text section that a toast runs, as {first page, pages} from the section's start. */
#define XTOAST_STDLIB_TEXT_SIZE 0x187eea
#define XTOAST_STDLIB_HOT_RUNS \
    {0, 7}, {9, 1}, {37, 2}, {44, 1}, {47, 2}, {51, 1}, \
    {56, 4}, {91, 2}, {107, 1}, {110, 5}, {132, 1}, {135, 3}, \
    {144, 1}, {153, 2}, {162, 1}, {169, 1}, {172, 3}, {178, 7}, \
    {195, 1}, {202, 4}, {210, 2}, {218, 2}, {225, 1}, {228, 2}, \
    {244, 1}, {253, 2}, {277, 1}, {280, 2}, {287, 1}, {290, 1}, \
    {301, 1}, {316, 9}, {331, 14}, {347, 3}, {354, 4}, {360, 1}, \
    {363, 5}, {371, 10}, {383, 9}
