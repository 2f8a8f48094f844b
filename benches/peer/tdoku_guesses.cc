// tdoku_guesses: guesses per puzzle of tdoku (solver_dpll_triad_simd) on a puzzle file.
//
// Written for bulkdoku's peer comparison. It contains no tdoku code: it is compiled
// together with tdoku's own source from the shared peer folder (`#include` below, the
// same way that folder's tdoku_file_bench driver is built) and only calls the solver the
// way tdoku's exported function does (limit 1: the solver that keeps the last solution,
// else the counting one).
//
// usage: tdoku_guesses LIMIT FILE
// Input: one puzzle per line, first 81 characters, '.' or '0' for blanks; '#' and blank
// lines skipped. Output (stdout, one line): n=... guesses=... solutions=...
#include "solver_dpll_triad_simd.cc"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: tdoku_guesses LIMIT FILE\n");
        return 2;
    }
    size_t limit = strtoul(argv[1], nullptr, 10);
    std::ifstream in(argv[2]);
    if (limit < 1 || !in) {
        fprintf(stderr, "tdoku_guesses: bad limit or unreadable file %s\n", argv[2]);
        return 2;
    }
    auto *keep_last = new SolverDpllTriadSimd<1>{};
    auto *count_only = new SolverDpllTriadSimd<0>{};
    std::string line;
    char puzzle[96];
    char solution[96];
    size_t n = 0, guesses_total = 0, solutions_total = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line[0] == '\r') continue;
        if (line.size() < 81) continue;
        memset(puzzle, 0, sizeof puzzle);
        for (int k = 0; k < 81; k++) {
            char c = line[k];
            puzzle[k] = (c >= '1' && c <= '9') ? c : '.';
        }
        size_t guesses = 0;
        size_t found = limit == 1 ? keep_last->SolveSudoku(puzzle, 1, solution, &guesses)
                                  : count_only->SolveSudoku(puzzle, limit, solution, &guesses);
        n++;
        guesses_total += guesses;
        solutions_total += found;
    }
    delete keep_last;
    delete count_only;
    printf("n=%zu guesses=%zu solutions=%zu\n", n, guesses_total, solutions_total);
    return 0;
}
