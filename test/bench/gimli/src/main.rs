//! gimli-bench: gimli's DWARF expression evaluator on the benchmark corpus
//! (../shared/bench/corpus.txt) with the mock target of
//! ../shared/bench/README.md, the questions answered exactly as
//! test/bench/bench.c answers them for dwexpr.
//!
//!   gimli-bench CORPUS [MODE]
//!
//! MODE: `time` (default): ns per evaluation, median of 5 runs of at least
//! BENCH_SECONDS (2) each, for gimli's allocation-free storage
//! (`gimli-stack`, the reference) and its default one
//! (`gimli-heap`); `stack1` / `stack3` / `heap1` / `heap3`: one or three
//! passes, for callgrind (test/bench/gimli-callgrind.sh); `dump`: every
//! expression's result, one line each, in the form
//! test/bench/gimli-compare.py reads (bench.c's mode `dump` writes the
//! same for dwexpr).

use gimli::{
    DwAte, Encoding, EndianSlice, Evaluation, EvaluationResult, EvaluationStorage, Expression,
    Format, LittleEndian, Location, Piece, Value, ValueType,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What the passes hand out goes here, so that the compiler keeps the
/// work (std::hint::black_box needs Rust 1.66; Debian 12 has 1.63).
static SINK: AtomicUsize = AtomicUsize::new(0);

fn keep(n: usize) {
    SINK.fetch_add(n, Ordering::Relaxed);
}

type R<'a> = EndianSlice<'a, LittleEndian>;

/// One corpus line: the unit's address size and version, the bytes, the
/// base types (unit offset, DW_AT_encoding, byte size) its typed
/// operations name.
struct Expr {
    addr_size: u8,
    version: u16,
    bytes: Vec<u8>,
    types: Vec<(u64, u64, u64)>,
}

fn parse_line(line: &str) -> Option<Expr> {
    let mut it = line.split_whitespace();
    let addr_size: u8 = it.next()?.parse().ok()?;
    let hex = it.next()?;
    let bytes = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    let mut e = Expr { addr_size, version: 5, bytes, types: Vec::new() };
    for tok in it {
        if let Some(v) = tok.strip_prefix("v=") {
            e.version = v.parse().ok()?;
        } else if let Some(list) = tok.strip_prefix("bt=") {
            for t in list.split(',') {
                let mut f = t.split(':');
                let off = u64::from_str_radix(f.next()?, 16).ok()?;
                let ate = f.next()?.parse().ok()?;
                let size = f.next()?.parse().ok()?;
                e.types.push((off, ate, size));
            }
        }
    }
    Some(e)
}

/// The mock's base type at unit offset O (bench/README.md): 0 is the
/// generic type; else the line's bt= entry (signed and signed_char as
/// signed; unsigned, unsigned_char, boolean and UTF as unsigned; float of 4
/// or 8 bytes); anything else generic.
fn base_type(e: &Expr, o: u64) -> ValueType {
    if o == 0 {
        return ValueType::Generic;
    }
    for &(off, ate, size) in &e.types {
        if off != o {
            continue;
        }
        let enc = match ate {
            5 | 6 => gimli::DW_ATE_signed,
            2 | 7 | 8 | 0x10 => gimli::DW_ATE_unsigned,
            4 => gimli::DW_ATE_float,
            _ => return ValueType::Generic,
        };
        return ValueType::from_encoding(DwAte(enc.0), size).unwrap_or(ValueType::Generic);
    }
    ValueType::Generic
}

/// BITS viewed as type TY (the mock's "the same bits, viewed as that
/// type"; gimli's Value::from_u64 converts a float's number instead).
fn typed(ty: ValueType, bits: u64) -> Value {
    match ty {
        ValueType::F32 => Value::F32(f32::from_bits(bits as u32)),
        ValueType::F64 => Value::F64(f64::from_bits(bits)),
        _ => Value::from_u64(ty, bits).unwrap_or(Value::Generic(bits)),
    }
}

/// gimli's allocation-free storage, as its documentation shows it.
struct StoreOnStack;

impl<'a> EvaluationStorage<R<'a>> for StoreOnStack {
    type Stack = [Value; 64];
    type ExpressionStack = [(R<'a>, R<'a>); 4];
    type Result = [Piece<R<'a>>; 16];
}

/// Run evaluation EVAL of E to the end, answering every question with the
/// mock; gimli's error if it fails.
fn drive<'a, S: EvaluationStorage<R<'a>>>(
    e: &Expr,
    eval: &mut Evaluation<R<'a>, S>,
) -> gimli::Result<()> {
    let mut r = eval.evaluate()?;
    loop {
        let next = match r {
            EvaluationResult::Complete => return Ok(()),
            EvaluationResult::RequiresMemory { address, size, base_type: bt, .. } => {
                let mut v = address.wrapping_mul(2654435761);
                if size < 8 {
                    v &= (1u64 << (8 * u32::from(size))) - 1;
                }
                eval.resume_with_memory(typed(base_type(e, bt.0 as u64), v))
            }
            EvaluationResult::RequiresRegister { register, base_type: bt } => {
                let v = 0x7ffe_0000u64 + 0x100 * u64::from(register.0);
                eval.resume_with_register(typed(base_type(e, bt.0 as u64), v))
            }
            EvaluationResult::RequiresFrameBase => eval.resume_with_frame_base(0x7fff_0000),
            EvaluationResult::RequiresTls(x) => {
                eval.resume_with_tls(0x7f00_0000u64.wrapping_add(x))
            }
            EvaluationResult::RequiresCallFrameCfa => eval.resume_with_call_frame_cfa(0x7fff_0100),
            EvaluationResult::RequiresAtLocation(_) => {
                eval.resume_with_at_location(EndianSlice::new(&[], LittleEndian))
            }
            EvaluationResult::RequiresEntryValue(x) => {
                let b = x.0.slice();
                let first = b.first().copied().unwrap_or(0);
                let v = 0xe000_0000u64 + ((b.len() as u64) << 8) + u64::from(first);
                eval.resume_with_entry_value(Value::Generic(v))
            }
            EvaluationResult::RequiresParameterRef(o) => {
                eval.resume_with_parameter_ref(0xa000_0000u64.wrapping_add(o.0 as u64))
            }
            EvaluationResult::RequiresRelocatedAddress(a) => eval.resume_with_relocated_address(a),
            EvaluationResult::RequiresIndexedAddress { index, .. } => {
                eval.resume_with_indexed_address(0x60_0000u64.wrapping_add(8 * index.0 as u64))
            }
            EvaluationResult::RequiresBaseType(o) => {
                eval.resume_with_base_type(base_type(e, o.0 as u64))
            }
        };
        r = next?;
    }
}

fn encoding(e: &Expr) -> Encoding {
    Encoding { address_size: e.addr_size, format: Format::Dwarf32, version: e.version }
}

/// One pass over the corpus with the allocation-free storage; the errors.
fn pass_stack(es: &[Expr]) -> usize {
    let mut errors = 0;
    for e in es {
        let mut eval = Evaluation::<R, StoreOnStack>::new_in(
            EndianSlice::new(&e.bytes, LittleEndian),
            encoding(e),
        );
        if drive(e, &mut eval).is_err() {
            errors += 1;
            continue;
        }
        keep(eval.as_result().len());
    }
    errors
}

/// One pass with gimli's default storage (Vec): the result handed out.
fn pass_heap(es: &[Expr]) -> usize {
    let mut errors = 0;
    for e in es {
        let mut eval = Expression(EndianSlice::new(&e.bytes, LittleEndian)).evaluation(encoding(e));
        if drive(e, &mut eval).is_err() {
            errors += 1;
            continue;
        }
        keep(eval.result().len());
    }
    errors
}

/// LEN bytes of V, little-endian (V's bits above them are zero).
fn le_bytes(v: u64, len: usize) -> String {
    v.to_le_bytes()[..len.min(8)].iter().map(|b| format!("{:02x}", b)).collect()
}

/// A value's bytes as implicit storage: a generic value of the address
/// size, a typed one of its type's size.
fn value_bytes(v: &Value, addr_size: u8) -> String {
    match *v {
        Value::Generic(x) => le_bytes(x, addr_size as usize),
        Value::I8(x) => le_bytes(x as u8 as u64, 1),
        Value::U8(x) => le_bytes(x as u64, 1),
        Value::I16(x) => le_bytes(x as u16 as u64, 2),
        Value::U16(x) => le_bytes(x as u64, 2),
        Value::I32(x) => le_bytes(x as u32 as u64, 4),
        Value::U32(x) => le_bytes(x as u64, 4),
        Value::I64(x) => le_bytes(x as u64, 8),
        Value::U64(x) => le_bytes(x, 8),
        Value::F32(x) => le_bytes(x.to_bits() as u64, 4),
        Value::F64(x) => le_bytes(x.to_bits(), 8),
    }
}

/// A piece's place as gimli-compare.py reads it: mem:ADDR, reg:N,
/// imp:BYTES, iptr:DIE:DISP or undef, then +bN for a bit offset.
fn place(p: &Piece<R>, addr_size: u8) -> String {
    let off = p.bit_offset.unwrap_or(0);
    match &p.location {
        Location::Empty => "undef".to_string(),
        Location::Register { register } => {
            if off != 0 {
                format!("reg:{}+b{}", register.0, off)
            } else {
                format!("reg:{}", register.0)
            }
        }
        Location::Address { address } => {
            let bits = u128::from(*address) * 8 + u128::from(off);
            if bits % 8 != 0 {
                format!("mem:0x{:x}+b{}", bits / 8, bits % 8)
            } else {
                format!("mem:0x{:x}", bits / 8)
            }
        }
        Location::Value { value } => {
            let s = format!("imp:{}", value_bytes(value, addr_size));
            if off != 0 { format!("{}+b{}", s, off) } else { s }
        }
        Location::Bytes { value } => {
            let b: String = value.slice().iter().map(|b| format!("{:02x}", b)).collect();
            let s = format!("imp:{}", b);
            if off != 0 { format!("{}+b{}", s, off) } else { s }
        }
        Location::ImplicitPointer { value, byte_offset } => {
            format!("iptr:0x{:x}:{}", value.0, byte_offset)
        }
    }
}

/// Every expression's result: `N err ERROR` (gimli's error), or `N P` for a result that is not
/// a composite, or `N [BITS:P,BITS:P,...]` (N: the line's index).
fn dump(es: &[Expr]) {
    for (i, e) in es.iter().enumerate() {
        let mut eval = Expression(EndianSlice::new(&e.bytes, LittleEndian)).evaluation(encoding(e));
        if let Err(err) = drive(e, &mut eval) {
            println!("{} err {:?}", i, err);
            continue;
        }
        let pieces = eval.result();
        if pieces.len() == 1 && pieces[0].size_in_bits.is_none() {
            println!("{} {}", i, place(&pieces[0], e.addr_size));
        } else if pieces.is_empty() {
            println!("{} undef", i);
        } else {
            let parts: Vec<String> = pieces
                .iter()
                .map(|p| format!("{}:{}", p.size_in_bits.unwrap_or(0), place(p, e.addr_size)))
                .collect();
            println!("{} [{}]", i, parts.join(","));
        }
    }
}

fn median_ns(es: &[Expr], seconds: f64, pass: fn(&[Expr]) -> usize) -> f64 {
    let mut runs = [0f64; 5];
    for run in runs.iter_mut() {
        let t0 = Instant::now();
        let mut evals = 0usize;
        loop {
            keep(pass(es));
            evals += es.len();
            let t = t0.elapsed().as_secs_f64();
            if t >= seconds {
                *run = t * 1e9 / evals as f64;
                break;
            }
        }
    }
    runs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    runs[2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map(String::as_str).unwrap_or("../shared/bench/corpus.txt");
    let mode = args.get(2).map(String::as_str).unwrap_or("time");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(err) => {
            eprintln!("gimli-bench: cannot read {}: {}", path, err);
            std::process::exit(2);
        }
    };
    let es: Vec<Expr> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(parse_line)
        .collect();
    let passes = |n: usize, f: fn(&[Expr]) -> usize| {
        let mut errors = 0;
        for _ in 0..n {
            errors = f(&es);
        }
        println!("errors={} n={}", errors, es.len());
    };
    match mode {
        "stack1" => passes(1, pass_stack),
        "stack3" => passes(3, pass_stack),
        "heap1" => passes(1, pass_heap),
        "heap3" => passes(3, pass_heap),
        "dump" => dump(&es),
        "time" => {
            let seconds: f64 = std::env::var("BENCH_SECONDS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(2.0);
            for (name, f) in [("gimli-stack", pass_stack as fn(&[Expr]) -> usize),
                              ("gimli-heap", pass_heap)] {
                let errors = f(&es); // warm-up
                let ns = median_ns(&es, seconds, f);
                println!("{} ns_per_eval={:.1} evals_per_s={:.0} errors={} n={}", name, ns,
                         1e9 / ns, errors, es.len());
            }
        }
        _ => {
            eprintln!("gimli-bench: unknown mode {}", mode);
            std::process::exit(2);
        }
    }
}
