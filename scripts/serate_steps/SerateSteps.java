// Sudoku Explainer's (serate's) rating path, step by step, for the puzzles of a file:
// for each puzzle a line `PUZZLE <81 characters>`, then one line per step:
// `number <TAB> difficulty <TAB> technique <TAB> what it removed (cell.digit, cell 0..80)
// and/or placed (place cell=digit)`. Runs serate's own step loop (its private
// getSingleHint, as serate's getDifficulty calls it) on serate's classes; written for
// bulkdoku's tests (tests/data/serate_steps.txt), see scripts/serate_steps.sh.
import diuf.sudoku.Cell;
import diuf.sudoku.Grid;
import diuf.sudoku.solver.Hint;
import diuf.sudoku.solver.IndirectHint;
import diuf.sudoku.solver.Rule;
import diuf.sudoku.solver.Solver;
import java.io.BufferedReader;
import java.io.FileReader;
import java.lang.reflect.Method;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeSet;

public class SerateSteps {
    public static void main(String[] args) throws Exception {
        Method next = Solver.class.getDeclaredMethod("getSingleHint");
        next.setAccessible(true);
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]))) {
            String line;
            while ((line = in.readLine()) != null) {
                line = line.trim();
                if (line.length() < 81 || line.startsWith("#")) continue;
                Grid grid = new Grid();
                grid.fromString(line);
                grid.adjustPencilmarks();
                Solver solver = new Solver(grid);
                solver.rebuildPotentialValues();
                System.out.println("PUZZLE " + line);
                for (int step = 1; !grid.isSolved(); step++) {
                    Hint hint = (Hint) next.invoke(solver);
                    if (hint == null) {
                        System.out.println("# no step applies");
                        break;
                    }
                    StringBuilder what = new StringBuilder();
                    if (hint instanceof IndirectHint) {
                        TreeSet<Integer> removed = new TreeSet<>();
                        for (Map.Entry<Cell, BitSet> e : ((IndirectHint) hint).getRemovablePotentials().entrySet()) {
                            BitSet v = e.getValue();
                            for (int d = v.nextSetBit(0); d >= 0; d = v.nextSetBit(d + 1))
                                removed.add(e.getKey().getIndex() * 10 + d);
                        }
                        for (int k : removed) what.append(' ').append(k / 10).append('.').append(k % 10);
                    }
                    if (hint.getCell() != null)
                        what.append(" place ").append(hint.getCell().getIndex()).append('=').append(hint.getValue());
                    Rule rule = (Rule) hint;
                    System.out.println(step + "\t" + rule.getDifficulty() + "\t" + rule.getName() + "\t" + what);
                    System.out.flush();
                    hint.apply(grid);
                }
            }
        }
    }
}
