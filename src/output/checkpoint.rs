//! Checkpoints of a Parquet output, and the recovery of a file its writer never
//! finished.
//!
//! A Parquet file is readable only through its footer, which its writer puts at the
//! very end: a run killed outright (SIGKILL, a crash, a power loss) leaves row groups
//! and no footer, and no reader opens it. The Parquet sinks therefore publish a
//! [`ParquetCheckpoint`] each time a row group is closed and its bytes are handed to the
//! file: how many rows and bytes the closed row groups hold, and a complete footer
//! describing exactly them. A caller keeps the latest one somewhere durable (the
//! `.resume` record beside the output); [`recover_parquet`] later cuts the file back to
//! the checkpoint's bytes and appends its footer, which makes it a valid Parquet file of
//! those row groups.
//!
//! What survives what:
//!
//! - A process killed at any point (SIGKILL, a panic, an abort): every row group of
//!   the checkpoint kept, since its bytes had reached the operating system before it
//!   was published; the row group in progress is lost, and any bytes of it (or of a
//!   footer) after the checkpoint's are cut off. Past 256 row groups the sinks
//!   checkpoint less often than every row group (the footer grows with the file), so
//!   the latest checkpoint may be a few row groups behind.
//! - A finished file (its own footer written) is recovered just as well: the footer
//!   after the checkpoint's bytes is replaced by the checkpoint's.
//! - A power loss or kernel crash: only what was synced to disk. A checkpoint is worth
//!   keeping once the file has been synced (`File::sync_data`) up to its bytes; a file
//!   found shorter than its checkpoint is refused, never padded.
//!
//! This module needs no Parquet library: recovery is a cut and an append. Reading the
//! recovered rows back into a new output is `parquet_resume` (feature `parquet`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four bytes that open and close every Parquet file.
const MAGIC: &[u8; 4] = b"PAR1";

/// How much of a Parquet output is whole: the row groups closed and written so far,
/// and the footer that makes a file of exactly them.
///
/// Serialized (e.g. into JSON) with the footer as hexadecimal text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParquetCheckpoint {
    /// Rows in the closed row groups.
    pub rows: u64,
    /// Row groups closed.
    pub row_groups: u64,
    /// The file's length at the end of the last closed row group (from the start of
    /// the file, its leading `PAR1` included).
    pub bytes: u64,
    /// A complete Parquet footer for the closed row groups: the file metadata (Thrift),
    /// its 4-byte little-endian length and `PAR1`. Its offsets are the file's own, so
    /// it is valid only at `bytes`.
    #[serde(serialize_with = "to_hex", deserialize_with = "from_hex")]
    pub footer: Vec<u8>,
}

fn to_hex<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let text: String = bytes
        .iter()
        .flat_map(|b| [DIGITS[(b >> 4) as usize], DIGITS[(b & 15) as usize]])
        .map(char::from)
        .collect();
    serializer.serialize_str(&text)
}

fn from_hex<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    let text = String::deserialize(deserializer)?;
    let digit = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(serde::de::Error::custom(format!(
            "the footer is not hexadecimal: {:?}",
            char::from(c)
        ))),
    };
    if text.len() % 2 != 0 {
        return Err(serde::de::Error::custom(
            "the footer's hexadecimal text has an odd length",
        ));
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| Ok(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

impl ParquetCheckpoint {
    /// Check that the footer is shaped as one: at least its length and `PAR1`, the
    /// length saying how much metadata precedes them.
    fn check(&self) -> io::Result<()> {
        let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
        let n = self.footer.len();
        if n < 8 || &self.footer[n - 4..] != MAGIC {
            return Err(bad("the checkpoint's footer does not end with PAR1"));
        }
        let meta = u32::from_le_bytes(self.footer[n - 8..n - 4].try_into().expect("4 bytes"));
        if meta as usize + 8 != n {
            return Err(bad(
                "the checkpoint's footer length does not match its size",
            ));
        }
        if self.bytes < MAGIC.len() as u64 {
            return Err(bad("the checkpoint ends before the file's leading PAR1"));
        }
        Ok(())
    }
}

/// Make `file` a valid Parquet file of the row groups of checkpoint `cp`: cut it to
/// `cp.bytes` and append `cp.footer`, leaving the position at the end.
///
/// Works whatever follows `cp.bytes`: a row group cut short, a whole one not yet
/// checkpointed, the file's own footer, or a footer appended by an earlier recovery
/// (recovering twice gives the same file). Refuses a file shorter than `cp.bytes`
/// (its data was lost, or it is another file) or one that does not start with `PAR1`,
/// leaving it untouched. Does not sync the file: the caller decides when it must be
/// durable.
pub fn recover_parquet(file: &mut File, cp: &ParquetCheckpoint) -> io::Result<()> {
    cp.check()?;
    let len = file.metadata()?.len();
    if len < cp.bytes {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the file holds {len} bytes, fewer than the {} of its checkpoint: \
                 it is not the file the checkpoint was taken of, or its end was lost",
                cp.bytes
            ),
        ));
    }
    let mut head = [0u8; 4];
    file.seek(SeekFrom::Start(0))?;
    file.read_exact(&mut head)?;
    if &head != MAGIC {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the file does not start with PAR1: not a Parquet file",
        ));
    }
    file.set_len(cp.bytes)?;
    file.seek(SeekFrom::Start(cp.bytes))?;
    file.write_all(&cp.footer)?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(footer: &[u8]) -> ParquetCheckpoint {
        ParquetCheckpoint {
            rows: 7,
            row_groups: 1,
            bytes: 10,
            footer: footer.to_vec(),
        }
    }

    #[test]
    fn the_footer_round_trips_through_json_as_hex() {
        let cp = checkpoint(&[0, 1, 0xab, 0xff, 3, 0, 0, 0, b'P', b'A', b'R', b'1']);
        let text = serde_json::to_string(&cp).unwrap();
        assert!(
            text.contains("\"footer\":\"0001abff0300000050415231\""),
            "{text}"
        );
        assert_eq!(
            serde_json::from_str::<ParquetCheckpoint>(&text).unwrap(),
            cp
        );
        let odd = text.replace("0001abff", "001abff");
        assert!(serde_json::from_str::<ParquetCheckpoint>(&odd).is_err());
        let bad = text.replace("0001abff", "0001abfg");
        assert!(serde_json::from_str::<ParquetCheckpoint>(&bad).is_err());
    }

    #[test]
    fn recovery_cuts_and_appends_or_refuses_and_leaves_the_file() {
        let footer = [9, 9, 2, 0, 0, 0, b'P', b'A', b'R', b'1'];
        let cp = checkpoint(&footer);
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"PAR1rowgroup-torn-tail").unwrap();
        recover_parquet(&mut file, &cp).unwrap();
        let read = |file: &mut File| {
            let mut all = Vec::new();
            file.seek(SeekFrom::Start(0)).unwrap();
            file.read_to_end(&mut all).unwrap();
            all
        };
        let want = [&b"PAR1rowgro"[..], &footer].concat();
        assert_eq!(read(&mut file), want);
        // Again: the same file.
        recover_parquet(&mut file, &cp).unwrap();
        assert_eq!(read(&mut file), want);

        // Too short, not Parquet, a malformed footer: refused, the file as it was.
        let refused = |content: &[u8], cp: &ParquetCheckpoint| {
            let mut file = tempfile::tempfile().unwrap();
            file.write_all(content).unwrap();
            let err = recover_parquet(&mut file, cp).unwrap_err();
            assert_eq!(read(&mut file), content);
            err
        };
        let err = refused(b"PAR1row", &cp);
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(err.to_string().contains("holds 7 bytes"), "{err}");
        let err = refused(b"CSV,rowgroup-torn", &cp);
        assert!(err.to_string().contains("not a Parquet file"), "{err}");
        let err = refused(b"PAR1rowgroup", &checkpoint(&footer[1..]));
        assert!(err.to_string().contains("length"), "{err}");
        let err = refused(b"PAR1rowgroup", &checkpoint(&footer[..9]));
        assert!(err.to_string().contains("PAR1"), "{err}");
    }
}
