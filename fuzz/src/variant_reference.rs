//! A slow, obviously correct solution counter for variant rules, independent of the
//! engines: fill the blanks in cell order with digits 1..=9, checking every rule by
//! scanning the cells it relates, written from the rules' definitions (docs/variants.md's
//! table), not from the library's rule tables. Its work is bounded, so that a fuzz
//! input cannot make it run for long.

/// The rules a puzzle plays by, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rules {
    /// Each main diagonal holds every digit once.
    pub x: bool,
    /// The four windows with top-left cells r2c2, r2c6, r6c2, r6c6 hold every digit once.
    pub windoku: bool,
    /// Cells a knight's move apart differ.
    pub anti_knight: bool,
    /// Cells a king's move apart differ.
    pub anti_king: bool,
    /// Orthogonal neighbours never hold consecutive digits.
    pub non_consecutive: bool,
    /// The cells at the same place in each box hold every digit once.
    pub disjoint: bool,
}

impl Rules {
    /// The rules named by the low six bits of `bits`.
    pub fn from_bits(bits: u8) -> Rules {
        Rules {
            x: bits & 1 != 0,
            windoku: bits & 2 != 0,
            anti_knight: bits & 4 != 0,
            anti_king: bits & 8 != 0,
            non_consecutive: bits & 16 != 0,
            disjoint: bits & 32 != 0,
        }
    }

    /// The names `--rules` takes, comma-separated (`classic` for none); `jigsaw` added
    /// when the puzzle has regions.
    pub fn names(&self, jigsaw: bool) -> String {
        let mut names: Vec<&str> = [
            (self.x, "x"),
            (self.windoku, "windoku"),
            (self.anti_knight, "anti-knight"),
            (self.anti_king, "anti-king"),
            (self.non_consecutive, "non-consecutive"),
            (jigsaw, "jigsaw"),
            (self.disjoint, "disjoint"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, name)| name)
        .collect();
        if names.is_empty() {
            names.push("classic");
        }
        names.join(",")
    }
}

/// Region layouts (from `data/jigsaw_200.txt`) for the jigsaw entries of [`GRIDS`].
pub const LAYOUTS: [&str; 3] = [
    "111123444155223344152223346152233446155273466185573996885777966887779966888879999",
    "111122234115223334115222334615552334665555344766666448776999948777999998777888888",
    "111112222111322222133333334536777744556788774556784444556784999566689999566888899",
];

/// A complete grid for each rule set that has one: (rule bits as [`Rules::from_bits`]
/// reads them, jigsaw layout, grid). Made once by the library's `random_solution`
/// (seed 7); the unit tests check every one with this module's rules, so a wrong
/// entry cannot pass for a right one.
pub const GRIDS: &[(u8, Option<usize>, &str)] = &[
    (
        0,
        None,
        "281459637549376218367182459972615384614823795853794126138547962495261873726938541",
    ),
    (
        1,
        None,
        "281459637549376218367182459173845962698237145452961873936724581725618394814593726",
    ),
    (
        2,
        None,
        "281459637594376218367218459615823794923647581478195326742931865136584972859762143",
    ),
    (
        3,
        None,
        "281459637976328514345167298792816345653942781418573926529684173134795862867231459",
    ),
    (
        4,
        None,
        "281459637793628154546371829812537496679284513354916278138762945927845361465193782",
    ),
    (
        5,
        None,
        "912756843356849172478321965687235491231964587549187236164578329725493618893612754",
    ),
    (
        6,
        None,
        "281459637537126849469837521842573916975612483316984752124798365758361294693245178",
    ),
    (
        8,
        None,
        "281459637436271589759368214628714395314925876975683142862147953597836421143592768",
    ),
    (
        9,
        None,
        "281459637436271589795368214162843975347592861859617423924736158613985742578124396",
    ),
    (
        10,
        None,
        "281459637436271589597863241345127968972648153618935472723516894864792315159384726",
    ),
    (
        11,
        None,
        "281459637476238519539176428148523976952687143763914852815762394324891765697345281",
    ),
    (
        12,
        None,
        "281459637459637281637281459814596372596372814372814596145963728963728145728145963",
    ),
    (
        16,
        None,
        "951863724724195368368427915593742681846319257172586493637251849419638572285974136",
    ),
    (
        17,
        None,
        "418269735735814962962537418627953184359481627184726359841372596596148273273695841",
    ),
    (
        20,
        None,
        "396257418752814963418369527963725184527481639184936275639572841275148396841693752",
    ),
    (
        24,
        None,
        "147582936693147582258693147714258693369714258825369714471825369936471825582936471",
    ),
    (
        28,
        None,
        "162738495738495162495162738627384951384951627951627384273849516849516273516273849",
    ),
    (
        0,
        Some(0),
        "281459637697821354549136782354782196718695243973214568426378915162543879835967421",
    ),
    (
        1,
        Some(0),
        "912756843528643971637285194379124568841367259456918327795832416184579632263491785",
    ),
    (
        8,
        Some(0),
        "175963248342185679687592431294318567856247193421739856963851724719624385538476912",
    ),
    (
        0,
        Some(1),
        "281459637739125468652734819594618273413587926867392145948276351376841592125963784",
    ),
    (
        1,
        Some(1),
        "912756843531428769687193524243587196759642318864931275398274651426315987175869432",
    ),
    (
        0,
        Some(2),
        "281459637693741285752938164849672351365817492524163879478526913136295748917384526",
    ),
    (
        1,
        Some(2),
        "281459637693741285754683921315896742567238419429517368872365194946172853138924576",
    ),
    (
        8,
        Some(2),
        "281459637369718425745862319196234758623175894478591263534627981812943576957386142",
    ),
    (
        2,
        Some(2),
        "281459637693741285754286391316897452867534129925318746479623518548172963132965874",
    ),
    (
        32,
        None,
        "281459637475236189936871425314925876852647391697183254143598762528764913769312548",
    ),
    (
        33,
        None,
        "281459637475236189936871542518942376643517928729683415164725893892364751357198264",
    ),
    (
        34,
        None,
        "281459637693287541457631829548173962372968154916542783824716395739825416165394278",
    ),
    (
        35,
        None,
        "281459637369827541457361829824173965175692483936548712542716398718934256693285174",
    ),
    (
        36,
        None,
        "281459637963728154745361829812594763396287415457613982128945376639872541574136298",
    ),
    (
        37,
        None,
        "281459637756132984439687251392874516675213498814596372143968725567321849928745163",
    ),
    (
        38,
        None,
        "281459637537126849496837521842573916675912483319684752124768395758391264963245178",
    ),
    (
        40,
        None,
        "281459637436271589759368214812745963963812745547936821198524376324697158675183492",
    ),
    (
        41,
        None,
        "281459637436271589597368214715924368364817925829635471173546892658192743942783156",
    ),
    (
        42,
        None,
        "281459637346217589759863412813742965462935871975186324528374196194628753637591248",
    ),
    (
        43,
        None,
        "281459637476238519539176428148523976952687143763914852815762394324891765697345281",
    ),
    (
        44,
        None,
        "281459637637281459459637281728145963963728145145963728372814596596372814814596372",
    ),
    (
        48,
        None,
        "379258614852416379614793825461937582285164937937582461793825146528641793146379258",
    ),
    (
        49,
        None,
        "315794826947268153682531479268153947531479682794826315479682531826315794153947268",
    ),
    (
        52,
        None,
        "629481573375926148841573692296148357753692814418357269962814735537269481184735926",
    ),
    (
        56,
        None,
        "837261594261594837594837261372615948948372615615948372483726159726159483159483726",
    ),
    (
        60,
        None,
        "162738495738495162495162738627384951384951627951627384273849516849516273516273849",
    ),
];

/// Each cell's region, 0..9: the 3×3 boxes, or a jigsaw layout.
pub type Regions = [u8; 81];

/// The 3×3 boxes as regions.
pub fn boxes() -> Regions {
    std::array::from_fn(|c| ((c / 27) * 3 + (c % 9) / 3) as u8)
}

/// A layout of [`LAYOUTS`] (symbols `1`-`9`) as regions.
pub fn layout(i: usize) -> Regions {
    let mut out = [0u8; 81];
    for (o, b) in out.iter_mut().zip(LAYOUTS[i].bytes()) {
        *o = b - b'1';
    }
    out
}

/// The cells of a grid of [`GRIDS`].
pub fn grid_cells(text: &str) -> [u8; 81] {
    let mut out = [0u8; 81];
    for (o, b) in out.iter_mut().zip(text.bytes()) {
        *o = b - b'0';
    }
    out
}

/// Whether `cell` lies in a windoku window, and which.
fn window(cell: usize) -> Option<usize> {
    let (r, c) = (cell / 9, cell % 9);
    let wr = [1usize, 5].iter().position(|&t| (t..t + 3).contains(&r))?;
    let wc = [1usize, 5].iter().position(|&t| (t..t + 3).contains(&c))?;
    Some(wr * 2 + wc)
}

/// Whether cells `a` and `b` (distinct) must hold different digits.
pub fn see(rules: &Rules, regions: &Regions, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    let (dr, dc) = (ra.abs_diff(rb), ca.abs_diff(cb));
    ra == rb
        || ca == cb
        || regions[a] == regions[b]
        || (rules.x && ra == ca && rb == cb)
        || (rules.x && ra + ca == 8 && rb + cb == 8)
        || (rules.windoku && window(a).is_some() && window(a) == window(b))
        || (rules.anti_knight && ((dr == 1 && dc == 2) || (dr == 2 && dc == 1)))
        || (rules.anti_king && dr <= 1 && dc <= 1)
        || (rules.disjoint && ra % 3 == rb % 3 && ca % 3 == cb % 3)
}

/// Whether `digit` may go in `cell` given the other (non-zero) cells.
pub fn allowed(rules: &Rules, regions: &Regions, cells: &[u8; 81], cell: usize, digit: u8) -> bool {
    (0..81).all(|other| {
        let v = cells[other];
        if other == cell || v == 0 {
            return true;
        }
        if v == digit && see(rules, regions, cell, other) {
            return false;
        }
        let orthogonal = (cell / 9 == other / 9 && (cell % 9).abs_diff(other % 9) == 1)
            || (cell % 9 == other % 9 && (cell / 9).abs_diff(other / 9) == 1);
        !(rules.non_consecutive && orthogonal && v.abs_diff(digit) == 1)
    })
}

/// Whether the givens break no rule.
pub fn givens_ok(rules: &Rules, regions: &Regions, cells: &[u8; 81]) -> bool {
    (0..81).all(|c| cells[c] == 0 || allowed(rules, regions, cells, c, cells[c]))
}

/// Whether `grid` is complete and breaks no rule.
pub fn is_solution(rules: &Rules, regions: &Regions, grid: &[u8; 81]) -> bool {
    grid.iter().all(|&v| (1..=9).contains(&v)) && givens_ok(rules, regions, grid)
}

/// Every solution up to `limit`, or `None` when that takes more than `budget` steps.
pub fn solutions(
    rules: &Rules,
    regions: &Regions,
    cells: &[u8; 81],
    limit: usize,
    budget: u64,
) -> Option<Vec<[u8; 81]>> {
    struct Search<'a> {
        rules: &'a Rules,
        regions: &'a Regions,
        limit: usize,
        budget: u64,
        out: Vec<[u8; 81]>,
    }
    impl Search<'_> {
        /// `false` when the budget ran out.
        fn fill(&mut self, cells: &mut [u8; 81], from: usize) -> bool {
            let Some(cell) = (from..81).find(|&c| cells[c] == 0) else {
                self.out.push(*cells);
                return true;
            };
            for digit in 1..=9 {
                if self.out.len() >= self.limit {
                    return true;
                }
                if self.budget == 0 {
                    return false;
                }
                self.budget -= 1;
                if allowed(self.rules, self.regions, cells, cell, digit) {
                    cells[cell] = digit;
                    let finished = self.fill(cells, cell + 1);
                    cells[cell] = 0;
                    if !finished {
                        return false;
                    }
                }
            }
            true
        }
    }
    if !givens_ok(rules, regions, cells) {
        return Some(Vec::new());
    }
    let mut search = Search {
        rules,
        regions,
        limit,
        budget,
        out: Vec::new(),
    };
    let mut work = *cells;
    search.fill(&mut work, 0).then_some(search.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (o, b) in out.iter_mut().zip(text.bytes()) {
            *o = if b == b'.' { 0 } else { b - b'0' };
        }
        out
    }

    /// A classic solution that is not an X solution (its main diagonal repeats 4).
    const CLASSIC: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn rules_are_checked_from_their_definitions() {
        let b = boxes();
        let grid = cells(CLASSIC);
        assert!(is_solution(&Rules::default(), &b, &grid));
        let x = Rules::from_bits(1);
        // The main diagonal reads 8,4,5,2,4,9,3,1,2.
        assert!(!is_solution(&x, &b, &grid));
        // Givens: r1c1 = 7 and r5c5 = 7 conflict under x only.
        let mut g = [0u8; 81];
        g[0] = 7;
        g[40] = 7;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&x, &b, &g));
        // A knight's move across boxes: r3c3 and r4c5.
        let mut g = [0u8; 81];
        g[20] = 4;
        g[31] = 4;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&Rules::from_bits(4), &b, &g));
        // A king's move, diagonally: r1c1 and r2c2 are in one box already; r3c3 and
        // r4c4 are not.
        let mut g = [0u8; 81];
        g[20] = 5;
        g[30] = 5;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&Rules::from_bits(8), &b, &g));
        // Non-consecutive: r4c4 = 5 beside r4c5 = 6.
        let mut g = [0u8; 81];
        g[30] = 5;
        g[31] = 6;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&Rules::from_bits(16), &b, &g));
        // The window at r6c6: r6c6 and r8c8 (not in one box).
        let mut g = [0u8; 81];
        g[50] = 9;
        g[70] = 9;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&Rules::from_bits(2), &b, &g));
        // Disjoint groups: r2c5 and r8c2, both the centre of their boxes.
        let mut g = [0u8; 81];
        g[13] = 6;
        g[64] = 6;
        assert!(givens_ok(&Rules::default(), &b, &g));
        assert!(!givens_ok(&Rules::from_bits(32), &b, &g));
    }

    #[test]
    fn every_table_grid_keeps_its_rules() {
        for &(bits, layout_index, text) in GRIDS {
            let regions = layout_index.map_or_else(boxes, layout);
            let rules = Rules::from_bits(bits);
            assert!(
                is_solution(&rules, &regions, &grid_cells(text)),
                "{} {text}",
                rules.names(layout_index.is_some())
            );
        }
        for i in 0..LAYOUTS.len() {
            let regions = layout(i);
            for r in 0..9u8 {
                assert_eq!(regions.iter().filter(|&&x| x == r).count(), 9, "layout {i}");
            }
        }
    }

    #[test]
    fn the_counter_finds_a_blanked_solution_and_no_more() {
        let b = boxes();
        let mut puzzle = cells(CLASSIC);
        for c in [0, 10, 20, 40, 50, 60, 80] {
            puzzle[c] = 0;
        }
        let found = solutions(&Rules::default(), &b, &puzzle, 3, 1_000_000).unwrap();
        assert_eq!(found, vec![cells(CLASSIC)]);
        assert_eq!(
            solutions(&Rules::from_bits(1), &b, &cells(CLASSIC), 3, 10),
            Some(vec![])
        );
        // An empty grid has more than a few solutions under x, and the budget bounds
        // the search.
        let empty = [0u8; 81];
        assert_eq!(
            solutions(&Rules::from_bits(1), &b, &empty, 2, 1_000_000)
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            solutions(&Rules::from_bits(1), &b, &empty, 1_000_000, 1000),
            None
        );
        assert_eq!(
            Rules::from_bits(1 | 16).names(true),
            "x,non-consecutive,jigsaw"
        );
        assert_eq!(Rules::default().names(false), "classic");
    }
}
