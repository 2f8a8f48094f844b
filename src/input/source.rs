//! The byte stream under every reader: a file or standard input, its compression
//! detected by magic bytes and undone, a BOM dropped, and a count of the raw bytes
//! consumed for progress.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, IsTerminal, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;

use super::detect::SAMPLE_LINES;

/// Capacity of the buffer the readers scan. Large, so that the per-line cost is a scan
/// of memory, not a system call.
const BUFFER: usize = 1 << 20;

/// How much decompressed text format detection may look at, at most.
const HEAD_LIMIT: usize = 64 * 1024;

/// A decompressed byte stream with its name and progress counters.
pub(crate) struct Stream {
    /// The display name of the input, for error messages.
    pub(crate) name: String,
    /// The decompressed text, buffered.
    pub(crate) reader: BufReader<Box<dyn Read + Send>>,
    /// The raw bytes consumed and the raw size.
    pub(crate) bytes: ByteCount,
}

/// How far through its raw input a stream is.
pub(crate) struct ByteCount {
    consumed: Arc<AtomicU64>,
    total: Option<u64>,
}

impl ByteCount {
    /// Raw (compressed) bytes consumed so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.consumed.load(Ordering::Relaxed)
    }

    /// Size of the raw input when it is a regular file.
    pub(crate) fn total_bytes(&self) -> Option<u64> {
        self.total
    }
}

impl Stream {
    /// Open `path` (`None` for standard input) and undo its compression.
    ///
    /// Returns the stream and a copy of its first bytes (at least the first complete
    /// non-comment line when there is one, BOM removed), which format detection reads;
    /// the stream still yields those bytes.
    pub(crate) fn open(path: Option<&Path>, name: &str) -> anyhow::Result<(Stream, Vec<u8>)> {
        let interactive = path.is_none() && io::stdin().is_terminal();
        let (raw, total): (Box<dyn Read + Send>, Option<u64>) = match path {
            Some(path) => {
                let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
                let meta = file
                    .metadata()
                    .with_context(|| format!("{name}: cannot read its metadata"))?;
                if meta.is_dir() {
                    anyhow::bail!("{name}: is a directory");
                }
                (Box::new(file), meta.is_file().then_some(meta.len()))
            }
            None => (Box::new(io::stdin()), None),
        };
        Stream::from_raw(raw, total, name, interactive)
    }

    /// Like [`Stream::open`], over any raw byte source of `total` bytes if known;
    /// `interactive` when someone may be typing it.
    pub(crate) fn from_raw(
        raw: Box<dyn Read + Send>,
        total: Option<u64>,
        name: &str,
        interactive: bool,
    ) -> anyhow::Result<(Stream, Vec<u8>)> {
        let consumed = Arc::new(AtomicU64::new(0));
        let mut raw = Counting {
            inner: raw,
            consumed: Arc::clone(&consumed),
        };
        let magic = read_up_to(&mut raw, 8).with_context(|| format!("{name}: cannot read"))?;
        let compression = Compression::sniff(&magic)
            .map_err(|what| anyhow::anyhow!("{name}: {what} input is not supported"))?;
        let raw = Cursor::new(magic).chain(raw);
        let mut decoded: Box<dyn Read + Send> = match compression {
            Compression::None => Box::new(raw),
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
            Compression::Zstd => Box::new(ZstdFrames::new(BufReader::with_capacity(BUFFER, raw))),
        };
        let mut head = read_head(&mut decoded, interactive)
            .with_context(|| format!("{name}: cannot read{}", compression.describe()))?;
        if head.starts_with(b"\xEF\xBB\xBF") {
            head.drain(..3);
        }
        let reader: Box<dyn Read + Send> = Box::new(Cursor::new(head.clone()).chain(decoded));
        let stream = Stream {
            name: name.to_string(),
            reader: BufReader::with_capacity(BUFFER, reader),
            bytes: ByteCount { consumed, total },
        };
        Ok((stream, head))
    }

    /// An error reading the stream at `line`, with the file's name.
    pub(crate) fn read_error(&self, line: u64, err: io::Error) -> anyhow::Error {
        read_error(&self.name, line, err)
    }
}

/// An error reading input `name` at `line`.
pub(crate) fn read_error(name: &str, line: u64, err: io::Error) -> anyhow::Error {
    anyhow::Error::new(err).context(format!("{name}: line {line}: cannot read"))
}

/// Compression formats recognised by their magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// Recognise the compression from the first bytes; `Err` names a format we know
    /// but cannot read, so the user gets a clear message instead of garbage records.
    fn sniff(magic: &[u8]) -> Result<Compression, &'static str> {
        if magic.starts_with(&[0x1F, 0x8B]) {
            Ok(Compression::Gzip)
        } else if magic.starts_with(&[0x28, 0xB5, 0x2F, 0xFD])
            || (magic.len() >= 4 && magic[0] & 0xF0 == 0x50 && magic[1..4] == [0x2A, 0x4D, 0x18])
        {
            // A zstd frame, or a zstd skippable frame (magic 0x184D2A50..=0x184D2A5F).
            Ok(Compression::Zstd)
        } else if magic.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
            Err("xz-compressed")
        } else if magic.starts_with(b"BZh") && magic.len() > 3 && magic[3].is_ascii_digit() {
            Err("bzip2-compressed")
        } else if magic.starts_with(b"PK\x03\x04") {
            Err("zip")
        } else {
            Ok(Compression::None)
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => " (gzip)",
            Compression::Zstd => " (zstd)",
        }
    }
}

/// Counts the bytes read through it into a counter shared with the reader's owner.
struct Counting {
    inner: Box<dyn Read + Send>,
    consumed: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Read up to `n` bytes, fewer only at the end of input.
fn read_up_to(reader: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(n);
    reader.take(n as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Read the first decompressed bytes for format detection: up to [`HEAD_LIMIT`] bytes,
/// or the end of input, or as soon as enough lines are in hand: the lines detection
/// samples, or for a terminal the first meaningful (non-blank, non-comment) line, so
/// that someone typing a puzzle is not kept waiting.
fn read_head(reader: &mut dyn Read, interactive: bool) -> io::Result<Vec<u8>> {
    let wanted = if interactive { 1 } else { SAMPLE_LINES };
    let mut head = vec![0u8; HEAD_LIMIT];
    let mut len = 0;
    while len < HEAD_LIMIT {
        let n = match reader.read(&mut head[len..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        len += n;
        if meaningful_lines(&head[..len]) >= wanted {
            break;
        }
    }
    head.truncate(len);
    Ok(head)
}

/// How many complete lines of `text` are neither blank nor `#` comments.
fn meaningful_lines(text: &[u8]) -> usize {
    text.split_inclusive(|&b| b == b'\n')
        .filter(|line| line.ends_with(b"\n"))
        .filter(|line| {
            let t = line.trim_ascii();
            let t = t.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(t);
            !t.is_empty() && t[0] != b'#'
        })
        .count()
}

/// A zstd stream of one or more frames (as `cat a.zst b.zst` makes), skippable frames
/// skipped. `ruzstd`'s `StreamingDecoder` reads a single frame, so this drives its
/// `FrameDecoder` directly and starts it again at each frame.
struct ZstdFrames<R: BufRead> {
    source: R,
    decoder: Box<ruzstd::FrameDecoder>,
    in_frame: bool,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(source: R) -> Self {
        ZstdFrames {
            source,
            decoder: Box::new(ruzstd::FrameDecoder::new()),
            in_frame: false,
        }
    }
}

fn zstd_error(err: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {err}"))
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use ruzstd::frame::ReadFrameHeaderError;
        use ruzstd::frame_decoder::FrameDecoderError;
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.in_frame {
                let decoder = &mut *self.decoder;
                // Decoding a block may yield nothing collectable yet; go on until
                // enough is collectable or the frame is done.
                while decoder.can_collect() < buf.len() && !decoder.is_finished() {
                    let wanted = buf.len() - decoder.can_collect();
                    decoder
                        .decode_blocks(
                            &mut self.source,
                            ruzstd::BlockDecodingStrategy::UptoBytes(wanted),
                        )
                        .map_err(zstd_error)?;
                }
                let n = decoder.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.in_frame = false;
            }
            if self.source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            match self.decoder.init(&mut self.source) {
                Ok(()) => self.in_frame = true,
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let want = u64::from(length);
                    let skipped = io::copy(&mut (&mut self.source).take(want), &mut io::sink())?;
                    if skipped < want {
                        return Err(zstd_error("truncated skippable frame"));
                    }
                }
                Err(e) => return Err(zstd_error(e)),
            }
        }
    }
}
