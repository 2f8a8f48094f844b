//! The gzip and zstd wrappers: the fuzzed text is compressed here, the compressed bytes
//! damaged where the input says (cut short, bytes flipped), and the reader's records
//! compared with what the reference decoder (flate2, the zstd crate) makes of the same
//! bytes: every whole line it decodes before the damage is a record, then an error
//! `fuzz:LINE: corrupt gzip data` (or zstd) naming the line being read.

use std::io::{Read, Write};

use arbitrary::{Result, Unstructured};
use bulkdoku::input::InputFormat;

use crate::input::forced;
use crate::text::{has_magic, named_line, repeat_line, SAMPLE_LINES};
use crate::{ensure, fail, lines, read_all, Chunked, Outcome, Text};

/// A compression format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Gzip,
    Zstd,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Gzip => "gzip",
            Kind::Zstd => "zstd",
        }
    }

    /// Bytes of magic at the start, never damaged: damaged magic is no longer this
    /// format, and plain-text reading is the other targets' business.
    fn magic(self) -> usize {
        match self {
            Kind::Gzip => 2,
            Kind::Zstd => 4,
        }
    }

    fn compress(self, text: &[u8], level: u8) -> Vec<u8> {
        match self {
            Kind::Gzip => {
                let level = flate2::Compression::new(u32::from(level % 10));
                let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
                enc.write_all(text).expect("in memory");
                enc.finish().expect("in memory")
            }
            Kind::Zstd => zstd::encode_all(text, i32::from(level % 6) + 1).expect("in memory"),
        }
    }

    /// What the reference decoder makes of `bytes`: the text decoded before any error,
    /// and whether there was one.
    fn reference(self, bytes: &[u8]) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let result = match self {
            Kind::Gzip => flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out),
            Kind::Zstd => match zstd::stream::read::Decoder::new(bytes) {
                Ok(mut dec) => dec.read_to_end(&mut out),
                Err(e) => Err(e),
            },
        };
        (out, result.is_err())
    }
}

/// How a fuzz input is compressed and damaged.
#[derive(Debug)]
pub struct Case {
    pub kind: Kind,
    pub compressed: Vec<u8>,
    pub chunk: usize,
}

pub fn case(kind: Kind, data: &[u8]) -> Result<Case> {
    let mut u = Unstructured::new(data);
    let level: u8 = u.arbitrary()?;
    let chunk = *u.choose(&[usize::MAX, 1, 2, 3, 7, 64, 4096])?;
    // Past the detection sample, the damage lands where the readers read, not in the
    // head that detection reads first.
    let filler: bool = u.arbitrary()?;
    let cut: Option<u32> = u.arbitrary()?;
    let flips = u.int_in_range(0..=3u8)?;
    let mut damage = Vec::new();
    for _ in 0..flips {
        damage.push((u.arbitrary::<u32>()?, u.int_in_range(1..=255u8)?));
    }
    let text = u.take_rest();
    let mut plain = if filler {
        repeat_line(b"1\n", SAMPLE_LINES)
    } else {
        Vec::new()
    };
    plain.extend_from_slice(text);
    let mut compressed = kind.compress(&plain, level);
    let magic = kind.magic();
    for (at, xor) in damage {
        let room = compressed.len() - magic;
        if room > 0 {
            compressed[magic + at as usize % room] ^= xor;
        }
    }
    if let Some(cut) = cut {
        let keep = magic + cut as usize % (compressed.len() - magic + 1);
        compressed.truncate(keep);
    }
    Ok(Case {
        kind,
        compressed,
        chunk,
    })
}

/// What a decoder fed one byte at a time, read 64 bytes at a time, makes of `bytes`:
/// as much text as it can be made to give before an error, and whether there was one.
/// (A decoder drops what it decoded in the call that meets the damage, so bigger reads
/// give less; and libzstd may not even see damage when fed little by little.)
fn most(kind: Kind, bytes: &[u8]) -> (Vec<u8>, bool) {
    let source = Chunked::new(bytes.to_vec(), 1);
    let mut decoder: Box<dyn Read> = match kind {
        Kind::Gzip => Box::new(flate2::read::MultiGzDecoder::new(source)),
        Kind::Zstd => match zstd::stream::read::Decoder::new(source) {
            Ok(dec) => Box::new(dec),
            Err(_) => return (Vec::new(), true),
        },
    };
    let mut out = Vec::new();
    let mut buf = [0u8; 64];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return (out, false),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return (out, true),
        }
    }
}

/// The text up to its last line end.
fn whole_lines(text: &Text) -> Text {
    let end = text
        .norm
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // Already normalised: `Text::new` would drop a BOM at the start again.
    Text::indexed(text.norm[..end].to_vec())
}

/// Check one damaged input.
pub fn check(kind: Kind, case: &Case) -> std::result::Result<(), String> {
    let (whole, whole_damaged) = kind.reference(&case.compressed);
    let (most, most_damaged) = most(kind, &case.compressed);
    // libzstd's one-shot decoding sees damage (a frame shorter than its header says)
    // that its streaming decoder, fed as above, may miss.
    let bulk_damaged = kind == Kind::Zstd && zstd::decode_all(&case.compressed[..]).is_err();
    let outcome = read_all(
        Chunked::new(case.compressed.clone(), case.chunk),
        whole.len().max(most.len()),
        &forced(InputFormat::Lines),
    )?;
    checked(
        case,
        &outcome,
        whole_damaged || bulk_damaged,
        (&most, most_damaged),
    )
    .map_err(|e| {
        format!(
            "{e}\nreference: damaged {whole_damaged}, bulk {bulk_damaged}, byte by byte {most_damaged}; {:?}\n{}",
            String::from_utf8_lossy(&most[..most.len().min(200)]),
            outcome.describe()
        )
    })
}

fn checked(
    case: &Case,
    outcome: &Outcome,
    whole_damaged: bool,
    (most, most_damaged): (&[u8], bool),
) -> std::result::Result<(), String> {
    let kind = case.kind;
    let corrupt = format!("corrupt {} data", kind.name());
    let (records, error) = match outcome {
        Outcome::Read { records, error, .. } => (records, error),
        // Damage, even in the head that detection reads first, is met after the
        // records before it: an open is never refused (FINDING F1, fixed).
        Outcome::Refused(msg) => return Err(format!("refused: {msg}")),
    };
    let text = Text::new(most);
    let Some(msg) = error else {
        // Read to the end: every line of the text, and no damage that the reference
        // decoder, given the whole input, reports (FINDING F5, fixed).
        ensure!(!whole_damaged, "damaged input read without an error");
        return lines::check(&text, records, false);
    };
    ensure!(
        whole_damaged || most_damaged,
        "an intact stream read with the error {msg:?}"
    );
    ensure!(msg.contains(&corrupt), "error {msg:?} is not {corrupt}");
    // What came before the damage: exactly the first records of the whole lines.
    let complete = whole_lines(&text);
    let want = lines::model(&complete, false);
    ensure!(
        records.len() <= want.len(),
        "{} records, only {} whole lines before the damage",
        records.len(),
        want.len()
    );
    lines::check(&complete, records, false)
        .or_else(|_| lines::check(&complete.sample(records.len()), records, false))?;
    // The error names the line being read: past the last record, and no meaningful
    // line between them (none was consumed without a record).
    let line = named_line(msg).ok_or_else(|| format!("error names no line: {msg}"))? as usize;
    let last = records.last().map_or(0, |r| r.line as usize);
    ensure!(
        line > last && line <= text.len() + 1,
        "error at line {line}, last record at line {last}, {} lines decoded",
        text.len()
    );
    for n in last + 1..line.min(complete.len() + 1) {
        ensure!(
            !complete.meaningful(n),
            "line {n} consumed without a record before the error at line {line}"
        );
    }
    // No bound from below: the decoders drop what they decoded in the read that meets
    // the damage, so how many records come before it depends on the reads' sizes
    // (FINDING F11).
    Ok(())
}

/// A compression target.
pub fn target(kind: Kind, data: &[u8]) {
    let Ok(case) = case(kind, data) else {
        return;
    };
    debug_assert!(has_magic(&case.compressed));
    if let Err(e) = check(kind, &case) {
        fail(kind.name(), &case.compressed, &e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// F17: the whole lines before the damage keep a second BOM as text, as the
    /// reader does (only a BOM at the very start of the data is not text).
    #[test]
    fn whole_lines_keep_a_second_bom() {
        let text = Text::new(b"\xEF\xBB\xBF\xEF\xBB\xBF#...\n\x00\x0b.");
        let whole = whole_lines(&text);
        assert_eq!(whole.norm, b"\xEF\xBB\xBF#...\n");
        assert_eq!(lines::model(&whole, false).len(), 1);
    }

    /// Replay a saved input: `FUZZ_REPLAY=path FUZZ_KIND=gzip cargo test replay -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn replay() {
        let path = std::env::var("FUZZ_REPLAY").unwrap();
        let kind = match std::env::var("FUZZ_KIND").as_deref() {
            Ok("zstd") => Kind::Zstd,
            _ => Kind::Gzip,
        };
        let case = case(kind, &std::fs::read(path).unwrap()).unwrap();
        println!("chunk {} compressed {:02x?}", case.chunk, case.compressed);
        if let Ok(out) = std::env::var("FUZZ_DUMP") {
            std::fs::write(out, &case.compressed).unwrap();
        }
        let (decoded, damaged) = kind.reference(&case.compressed);
        println!(
            "reference: damaged {damaged}, {:?}",
            String::from_utf8_lossy(&decoded)
        );
        println!("{:?}", check(kind, &case));
    }
}
