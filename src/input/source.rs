//! The byte stream under every reader: a file or standard input, its compression
//! detected by magic bytes and undone, a BOM dropped, lone CR line ends (classic Mac
//! OS) made LF, and a count of the raw bytes consumed for progress.
//!
//! A damaged compressed input (truncated, or corrupt in the middle) yields everything
//! the decoder could decode before the damage, then an error that says so
//! ([`Corrupt`]), so that the records before it are not lost.

use std::fs::File;
use std::io::{self, BufRead, Cursor, IsTerminal, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;

use super::detect::SAMPLE_LINES;

/// Capacity of the buffer the readers scan, once grown ([`Buffered`]). Large, so that
/// the per-line cost is a scan of memory, not a system call.
const BUFFER: usize = 256 * 1024;

/// Bytes of raw input read before compression is sniffed: the magic bytes and, so that
/// a decoder gets a first chunk of real size rather than 8 bytes alone (libzstd can
/// then miss a damaged frame), what follows them.
const PREFIX: usize = 64 * 1024;

/// How much decompressed text format detection may look at, at most.
const HEAD_LIMIT: usize = 1 << 20;

/// A decompressed byte stream with its name and progress counters.
pub(crate) struct Stream {
    /// The display name of the input, for error messages.
    pub(crate) name: String,
    /// The decompressed text, buffered.
    pub(crate) reader: Buffered,
    /// The raw bytes consumed and the raw size.
    pub(crate) bytes: ByteCount,
}

/// The first decompressed bytes of an input, BOM removed: as many lines as format
/// detection samples, or up to 1 MiB, or the whole input (`whole`).
pub(crate) struct Head {
    pub(crate) bytes: Vec<u8>,
    pub(crate) whole: bool,
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
    /// Returns the stream and its [`Head`], which format detection reads; the stream
    /// still yields those bytes.
    pub(crate) fn open(path: Option<&Path>, name: &str) -> anyhow::Result<(Stream, Head)> {
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
    ) -> anyhow::Result<(Stream, Head)> {
        let consumed = Arc::new(AtomicU64::new(0));
        let mut raw = Counting {
            inner: raw,
            consumed: Arc::clone(&consumed),
        };
        let prefix = if interactive {
            // Someone typing: do not wait for more than the magic bytes could need.
            read_up_to(&mut raw, 8)
        } else {
            read_up_to(&mut raw, PREFIX)
        }
        .with_context(|| format!("{name}: cannot read"))?;
        let compression = Compression::sniff(&prefix)
            .map_err(|what| anyhow::anyhow!("{name}: {what} input is not supported"))?;
        let raw = Cursor::new(prefix).chain(raw);
        let decoder: Box<dyn Read + Send> = match compression {
            Compression::None => Box::new(raw),
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
            Compression::Zstd => Box::new(
                zstd::stream::read::Decoder::with_buffer(Buffered::new(Box::new(raw)))
                    .with_context(|| format!("{name}: cannot start the zstd decoder"))?,
            ),
        };
        let decoder: Box<dyn Read + Send> = match compression.describe() {
            "" => decoder,
            format => Box::new(Decoded {
                inner: decoder,
                format,
            }),
        };
        let mut decoded = LoneCr::new(decoder);
        // An error while the head is read (damage near the start) is not reported yet:
        // the records before it are read first, then the reader meets the error.
        let (mut head, whole, failed) = read_head(&mut decoded, interactive);
        if head.starts_with(b"\xEF\xBB\xBF") {
            head.drain(..3);
        }
        let rest: Box<dyn Read + Send> = match failed {
            Some(err) => Box::new(Failed(Some(err))),
            None => Box::new(decoded),
        };
        let reader: Box<dyn Read + Send> = Box::new(Cursor::new(head.clone()).chain(rest));
        let stream = Stream {
            name: name.to_string(),
            reader: Buffered::new(reader),
            bytes: ByteCount { consumed, total },
        };
        Ok((stream, Head { bytes: head, whole }))
    }

    /// An error reading the stream at `line`, with the file's name.
    pub(crate) fn read_error(&self, line: u64, err: io::Error) -> anyhow::Error {
        read_error(&self.name, line, err)
    }
}

/// The buffered reader the readers scan: like `std`'s `BufReader`, but its buffer
/// starts small and doubles (up to [`BUFFER`]) each time a read fills it, so that
/// opening a small input costs a small buffer, and a large input gets the large one
/// after a few reads. (`BufReader` would zero-fill its whole buffer on the first read:
/// the bulk of what opening a one-line input cost, FINDING F9.)
pub(crate) struct Buffered {
    inner: Box<dyn Read + Send>,
    /// Its length is the capacity in use (zero-filled once, as it grows).
    buf: Vec<u8>,
    /// The unread bytes are `buf[pos..filled]`.
    pos: usize,
    filled: usize,
}

/// The buffer's first size.
const FIRST_BUFFER: usize = 8 * 1024;

impl Buffered {
    fn new(inner: Box<dyn Read + Send>) -> Self {
        Buffered {
            inner,
            buf: Vec::new(),
            pos: 0,
            filled: 0,
        }
    }
}

impl Buffered {
    /// Read the next bytes into the buffer (all read before were consumed).
    #[cold]
    fn refill(&mut self) -> io::Result<()> {
        let size = self.buf.len();
        if size == 0 {
            self.buf.resize(FIRST_BUFFER, 0);
        } else if self.filled == size && size < BUFFER {
            // The last read filled it: the input comes in large reads.
            self.buf.resize((2 * size).min(BUFFER), 0);
        }
        self.pos = 0;
        self.filled = 0;
        self.filled = self.inner.read(&mut self.buf)?;
        Ok(())
    }
}

impl BufRead for Buffered {
    /// The unread bytes, read first if there are none: inlined, as the readers ask
    /// once per line.
    #[inline]
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            self.refill()?;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    #[inline]
    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.filled);
    }
}

impl Read for Buffered {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// An error reading input `name` at `line`: `name:line: corrupt zstd data (...)` for
/// damaged compressed data, `name:line: cannot read: ...` otherwise.
pub(crate) fn read_error(name: &str, line: u64, err: io::Error) -> anyhow::Error {
    if let Some(corrupt) = err.get_ref().and_then(|e| e.downcast_ref::<Corrupt>()) {
        return anyhow::anyhow!("{name}:{line}: {corrupt}");
    }
    anyhow::Error::new(err).context(format!("{name}:{line}: cannot read"))
}

/// Compressed data that could not be decoded: the input is damaged (or cut short).
#[derive(Debug)]
pub(crate) struct Corrupt {
    /// `gzip` or `zstd`.
    format: &'static str,
    /// What the decoder said.
    detail: String,
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "corrupt {} data ({}); every complete record before it was read",
            self.format, self.detail
        )
    }
}

impl std::error::Error for Corrupt {}

/// A decoder whose errors are reported as [`Corrupt`] data of its format.
struct Decoded {
    inner: Box<dyn Read + Send>,
    format: &'static str,
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let detail = match e.kind() {
                io::ErrorKind::UnexpectedEof => "the input ends inside a compressed block".into(),
                _ => e.to_string(),
            };
            io::Error::new(
                io::ErrorKind::InvalidData,
                Corrupt {
                    format: self.format,
                    detail,
                },
            )
        })
    }
}

/// Turns lone CR line ends (classic Mac OS text) into LF, so that every reader splits
/// such a file into its lines instead of taking it for one long line. CRLF stays as it
/// is (the readers drop the CR), wherever reads end: a CR that ends a read is held back
/// until the byte after it is known, so that the text (a quoted CSV field running over
/// lines, say) never depends on how the input arrived. Costs a `memchr` scan per read:
/// nothing next to solving.
struct LoneCr<R> {
    inner: R,
    /// A byte read from `inner` but not handed out yet: a CR whose next byte was not
    /// known, or the byte read to find out.
    held: Option<u8>,
    /// An error met after a held byte, returned once that byte is handed out.
    failed: Option<io::Error>,
}

impl<R: Read> LoneCr<R> {
    fn new(inner: R) -> Self {
        LoneCr {
            inner,
            held: None,
            failed: None,
        }
    }

    /// `inner` failed with `err` after the held byte, now `buf[0]`: hand that byte out
    /// first (a CR then ends its line, whatever was to follow), the error next time.
    fn fail_after_held(&mut self, buf: &mut [u8], err: io::Error) -> io::Result<usize> {
        if err.kind() == io::ErrorKind::Interrupted {
            self.held = Some(buf[0]);
            return Err(err);
        }
        if buf[0] == b'\r' {
            buf[0] = b'\n';
        }
        self.failed = Some(err);
        Ok(1)
    }
}

impl<R: Read> Read for LoneCr<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = buf.len();
        if room == 0 {
            return Ok(0);
        }
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        'read: loop {
            // The held byte first, then fresh ones; `ended` once `inner` says so.
            let mut n = 0;
            if let Some(byte) = self.held.take() {
                buf[0] = byte;
                n = 1;
            }
            let mut ended = false;
            if n < room {
                match self.inner.read(&mut buf[n..]) {
                    Ok(0) => ended = true,
                    Ok(fresh) => n += fresh,
                    Err(e) if n == 1 => return self.fail_after_held(buf, e),
                    Err(e) => return Err(e),
                }
            }
            let data = &mut buf[..n];
            let mut from = 0;
            while let Some(i) = memchr::memchr(b'\r', &data[from..]) {
                let at = from + i;
                from = at + 1;
                if at + 1 < n {
                    if data[at + 1] != b'\n' {
                        data[at] = b'\n';
                    }
                    continue;
                }
                // A CR last: what it is depends on the byte after it.
                if ended {
                    data[at] = b'\n';
                } else if n > 1 {
                    self.held = Some(b'\r');
                    return Ok(n - 1);
                } else if room > 1 {
                    // Nothing else in hand: read on behind it.
                    self.held = Some(b'\r');
                    continue 'read;
                } else {
                    // Room for this one byte only: look at the next one, and keep it.
                    let mut next = [0u8];
                    match self.inner.read(&mut next) {
                        Ok(0) => data[at] = b'\n',
                        Ok(_) => {
                            if next[0] != b'\n' {
                                data[at] = b'\n';
                            }
                            self.held = Some(next[0]);
                        }
                        Err(e) => return self.fail_after_held(buf, e),
                    }
                }
            }
            return Ok(n);
        }
    }
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

    /// The format's name (empty for none).
    fn describe(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
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
/// that someone typing a puzzle is not kept waiting. True with them when they are the
/// whole input.
fn read_head(reader: &mut dyn Read, interactive: bool) -> (Vec<u8>, bool, Option<io::Error>) {
    let wanted = if interactive { 1 } else { SAMPLE_LINES };
    // Grown as needed: most samples are a small part of the limit.
    let mut head = vec![0u8; HEAD_LIMIT.min(8 * 1024)];
    let (mut len, mut whole) = (0, false);
    // Complete meaningful lines so far, and where the line being read starts.
    let (mut lines, mut line_start) = (0, 0);
    while len < HEAD_LIMIT && lines < wanted {
        if len == head.len() {
            head.resize((2 * len).min(HEAD_LIMIT), 0);
        }
        let n = match reader.read(&mut head[len..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                head.truncate(len);
                return (head, false, Some(e));
            }
        };
        if n == 0 {
            whole = true;
            break;
        }
        for newline in memchr::memchr_iter(b'\n', &head[len..len + n]) {
            let end = len + newline;
            lines += usize::from(is_meaningful(&head[line_start..end]));
            line_start = end + 1;
        }
        len += n;
    }
    head.truncate(len);
    (head, whole, None)
}

/// A reader that fails with an error met earlier, once, then ends.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(err) => Err(err),
            None => Ok(0),
        }
    }
}

/// Whether a line is neither blank nor a `#` comment (a BOM before it ignored).
fn is_meaningful(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    let t = t.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(t);
    !t.is_empty() && t[0] != b'#'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` read through [`LoneCr`] in reads of at most `chunk` bytes.
    fn through_lone_cr(text: &[u8], chunk: usize) -> Vec<u8> {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        LoneCr::new(Chunks(text, chunk))
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn lone_crs_become_line_feeds_and_crlf_stays_a_line_end() {
        for chunk in [1, 2, 3, 5, 64] {
            assert_eq!(through_lone_cr(b"a\rb\rc", chunk), b"a\nb\nc", "{chunk}");
            assert_eq!(through_lone_cr(b"a\rb\r", chunk), b"a\nb\n", "{chunk}");
            assert_eq!(
                through_lone_cr(b"a\r\nb\r\n\r\nc", chunk),
                b"a\r\nb\r\n\r\nc",
                "{chunk}"
            );
            assert_eq!(through_lone_cr(b"plain\n", chunk), b"plain\n");
        }
    }

    /// FINDING F10 (fuzz/FINDINGS.md): a CRLF split across two reads stayed CRLF or
    /// became LF depending on where the reads ended.
    #[test]
    fn the_text_does_not_depend_on_where_reads_end() {
        let texts: [&[u8]; 6] = [
            b"id,puzzle,note\n1,123,\"two\r\nlines\"\n",
            b"\r\r\n\n\r\r\r\n\r",
            b"\r",
            b"\r\n",
            b"a\r\r\nb\r\rc\n\r\n\r",
            b"\n\r\n\r\n\r\r\n\n",
        ];
        for text in texts {
            // What the contract says: every CR not before an LF is an LF.
            let mut want = text.to_vec();
            for (i, byte) in want.iter_mut().enumerate() {
                if *byte == b'\r' && text.get(i + 1) != Some(&b'\n') {
                    *byte = b'\n';
                }
            }
            for chunk in 1..=text.len() + 1 {
                assert_eq!(through_lone_cr(text, chunk), want, "{text:?} by {chunk}");
            }
            // Read into buffers of one byte, as small as a caller may offer.
            let mut reader = LoneCr::new(text);
            let mut out = Vec::new();
            let mut one = [0u8];
            while reader.read(&mut one).unwrap() == 1 {
                out.push(one[0]);
            }
            assert_eq!(out, want, "{text:?} one byte per call");
        }
    }

    /// FINDING F9 (fuzz/FINDINGS.md): opening a small input must not cost a large
    /// buffer; a large input read in full reads gets the large one.
    #[test]
    fn the_read_buffer_grows_with_the_input() {
        let small = b"123\n".to_vec();
        let mut reader = Buffered::new(Box::new(Cursor::new(small.clone())));
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, small);
        assert_eq!(reader.buf.len(), FIRST_BUFFER);
        let large: Vec<u8> = (0..3 * BUFFER).map(|i| (i % 251) as u8).collect();
        let mut reader = Buffered::new(Box::new(Cursor::new(large.clone())));
        let mut out = Vec::new();
        loop {
            let buf = reader.fill_buf().unwrap();
            if buf.is_empty() {
                break;
            }
            // Consume a little less than there is, as a reader leaving a partial line.
            let n = buf.len().div_ceil(2);
            out.extend_from_slice(&buf[..n]);
            reader.consume(n);
        }
        assert_eq!(out, large);
        assert_eq!(reader.buf.len(), BUFFER);
    }

    /// A CR that ends the last read before an error still ends its line.
    #[test]
    fn a_cr_before_an_error_is_handed_out_first() {
        struct ThenFail<'a>(&'a [u8]);
        impl Read for ThenFail<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, "damage"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        for room in [1, 2, 64] {
            let mut reader = LoneCr::new(ThenFail(b"ab\r"));
            let mut out = Vec::new();
            let mut buf = vec![0u8; room];
            let err = loop {
                match reader.read(&mut buf) {
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => break e,
                }
            };
            assert_eq!(out, b"ab\n", "{room}");
            assert_eq!(err.to_string(), "damage");
        }
    }
}
