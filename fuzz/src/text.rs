//! A dataset's text as every reader must see it, and the shaping of a fuzz input into
//! a dataset.

/// The meaningful lines the readers' format detection samples before a stream's own
/// buffer takes over (`detect::SAMPLE_LINES`: 1000, and 16 when built for fuzzing): a
/// prefix of this many lines pushes the rest of a dataset past the head, into reads
/// that end in the middle of lines.
#[cfg(not(fuzzing))]
pub const SAMPLE_LINES: usize = 1000;
#[cfg(fuzzing)]
pub const SAMPLE_LINES: usize = 16;

/// Read sizes a [`crate::Chunked`] source may hand out: whole, or a few bytes at a
/// time as a pipe may, so that lines, CRLF pairs and multi-byte sequences straddle
/// reads.
const CHUNKS: [usize; 8] = [usize::MAX, 1, 2, 3, 5, 7, 16, 64];

/// Repeated input is kept below this many bytes: enough to cross `MAX_RECORD` and the
/// CSV reader's limit (`MAX_RECORD` and its read-ahead: 64 KiB and 64 KiB, or 4 KiB and
/// 16 KiB when built for fuzzing), little enough to stay fast.
#[cfg(not(fuzzing))]
const REPEAT_CAP: usize = 140_000;
#[cfg(fuzzing)]
const REPEAT_CAP: usize = 24_000;

/// A fuzz input made into a dataset.
#[derive(Debug, Clone)]
pub struct Shaped {
    /// Bytes per read of the source.
    pub chunk: usize,
    /// The dataset.
    pub bytes: Vec<u8>,
    /// Bytes of filler at its start.
    pub filler: usize,
}

impl Shaped {
    /// The dataset as a source: the filler in large reads, then `chunk` bytes a read.
    pub fn source(&self) -> crate::Chunked {
        crate::Chunked::after(self.bytes.clone(), self.chunk, self.filler)
    }
}

/// Shape `data` into a dataset. Its first byte holds flags: the read size (bits 0-2),
/// a filler prefix (bit 3: `filler` makes it from the body, e.g. a CSV header and rows
/// that fit it) and a repeat (bits 4 and 5 both, so that the slow long inputs are a
/// quarter of what the fuzzer tries: the next two bytes pick a slice of the body and
/// two more how often it repeats, for lines and records longer than `MAX_RECORD`).
pub fn shape(data: &[u8], filler: impl Fn(&[u8]) -> Vec<u8>) -> Shaped {
    let Some((&flags, rest)) = data.split_first() else {
        return Shaped {
            chunk: usize::MAX,
            bytes: Vec::new(),
            filler: 0,
        };
    };
    let chunk = CHUNKS[usize::from(flags & 7)];
    let mut body = rest.to_vec();
    if flags & 0x30 == 0x30 && rest.len() >= 4 {
        let inner = &rest[4..];
        let a = usize::from(rest[0]) % (inner.len() + 1);
        let b = a + usize::from(rest[1]) % (inner.len() - a + 1);
        let unit = &inner[a..b];
        let count = usize::from(u16::from_le_bytes([rest[2], rest[3]])) * 2;
        let count = if unit.is_empty() {
            0
        } else {
            count.min(REPEAT_CAP / unit.len())
        };
        body = Vec::with_capacity(inner.len() + unit.len() * count);
        body.extend_from_slice(&inner[..a]);
        for _ in 0..count {
            body.extend_from_slice(unit);
        }
        body.extend_from_slice(&inner[b..]);
    }
    let mut filled = 0;
    if flags & 0x08 != 0 {
        let mut bytes = filler(&body);
        filled = bytes.len();
        bytes.extend_from_slice(&body);
        body = bytes;
    }
    // Small reads of a large text only cost time: the boundaries they test are all
    // met in its first kilobytes.
    let chunk = if body.len() > 16 * 1024 {
        chunk.max(1024)
    } else {
        chunk
    };
    Shaped {
        chunk,
        bytes: body,
        filler: filled,
    }
}

/// `n` copies of `line`.
pub fn repeat_line(line: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len() * n);
    for _ in 0..n {
        out.extend_from_slice(line);
    }
    out
}

/// Whether the readers take `raw` for compressed data (or for a compressed format they
/// refuse) by its first bytes. The plain-text targets leave such inputs to the
/// compression targets and to detection.
pub fn has_magic(raw: &[u8]) -> bool {
    raw.starts_with(&[0x1F, 0x8B])
        || raw.starts_with(&[0x28, 0xB5, 0x2F, 0xFD])
        || (raw.len() >= 4 && raw[0] & 0xF0 == 0x50 && raw[1..4] == [0x2A, 0x4D, 0x18])
        || raw.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0])
        || (raw.starts_with(b"BZh") && raw.len() > 3 && raw[3].is_ascii_digit())
        || raw.starts_with(b"PK\x03\x04")
}

/// A decoded dataset split into lines the way the contract counts them: a UTF-8 BOM at
/// the very start is not text; LF, CRLF and a lone CR each end a line.
#[derive(Debug, Clone)]
pub struct Text {
    /// The text with the BOM dropped and every lone CR made LF (a CRLF keeps its CR).
    pub norm: Vec<u8>,
    /// Start offset of each line in `norm`.
    starts: Vec<usize>,
}

impl Text {
    pub fn new(decoded: &[u8]) -> Text {
        let decoded = decoded.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(decoded);
        let mut norm = decoded.to_vec();
        // memchr rather than a loop over bytes: every comparison of such a loop would
        // be traced by the fuzzer's instrumentation, a third of a target's time.
        for i in memchr::memchr_iter(b'\r', decoded) {
            if decoded.get(i + 1) != Some(&b'\n') {
                norm[i] = b'\n';
            }
        }
        Text::indexed(norm)
    }

    /// A text already normalised (as `norm` of another `Text`): nothing is dropped or
    /// changed again, not even a second BOM, which is text once the first is gone.
    pub fn indexed(norm: Vec<u8>) -> Text {
        if norm.is_empty() {
            return Text {
                norm,
                starts: Vec::new(),
            };
        }
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr_iter(b'\n', &norm)
                .map(|i| i + 1)
                .filter(|&start| start < norm.len()),
        );
        Text { norm, starts }
    }

    /// Number of lines (a last line without a line end counts; an empty text has none).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Line `n` (1-based), without its LF (a CRLF's CR stays).
    pub fn line(&self, n: usize) -> &[u8] {
        let start = self.starts[n - 1];
        let end = self.starts.get(n).map_or(self.norm.len(), |&next| next - 1);
        let line = &self.norm[start..end];
        line.strip_suffix(b"\n").unwrap_or(line)
    }

    /// The 1-based line holding byte `offset` of `norm`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// Lines 1..=len.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &[u8])> {
        (1..=self.len()).map(|n| (n, self.line(n)))
    }

    /// The text up to its `n`th meaningful line: what format detection samples.
    pub fn sample(&self, n: usize) -> Text {
        if n == 0 {
            return Text::indexed(Vec::new());
        }
        let mut seen = 0;
        for (i, line) in self.lines() {
            seen += usize::from(is_meaningful(line));
            if seen == n {
                let end = self.starts.get(i).copied().unwrap_or(self.norm.len());
                return Text::indexed(self.norm[..end].to_vec());
            }
        }
        self.clone()
    }

    /// Whether line `n` is meaningful: neither blank nor a `#` comment.
    pub fn meaningful(&self, n: usize) -> bool {
        is_meaningful(self.line(n))
    }
}

/// Neither blank (ASCII whitespace only) nor a comment (`#` first after blanks).
pub fn is_meaningful(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    !t.is_empty() && t[0] != b'#'
}

/// Bytes that are puzzle cells: digits and the blank spellings `. 0 _ - *`.
pub fn is_cell(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'*')
}

/// Whether `msg` names the input and a line as `fuzz:LINE: ...`; the line if so.
pub fn named_line(msg: &str) -> Option<u64> {
    let rest = msg.strip_prefix(crate::NAME)?.strip_prefix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with(": ") {
        return None;
    }
    rest[..digits].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let t = Text::new(b"\xEF\xBB\xBFa\r\nb\rc\n\nd");
        let lines: Vec<&[u8]> = t.lines().map(|(_, l)| l).collect();
        assert_eq!(lines, [&b"a\r"[..], b"b", b"c", b"", b"d"]);
        assert_eq!(Text::new(b"a\n").len(), 1);
        assert_eq!(Text::new(b"").len(), 0);
        assert_eq!(Text::new(b"\r\r\n").len(), 2);
        assert_eq!(t.line_of(0), 1);
        assert_eq!(t.line_of(3), 2);
        assert!(t.sample(0).is_empty());
        assert_eq!(t.sample(2).len(), 2);
    }

    #[test]
    fn named_lines() {
        assert_eq!(named_line("fuzz:12: corrupt"), Some(12));
        assert_eq!(named_line("fuzz: broken"), None);
        assert_eq!(named_line("other:1: x"), None);
    }
}
