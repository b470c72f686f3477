// test/dwarf/progs/rust_vars.rs: Rust variables for compare_gdb.py
// (rustc -g at opt-level 0 and 2): structures, enums with data (variant
// parts), a C-like enum, Result, Option with and without a niche, slices,
// &str, tuples, arrays of arrays, Rc, RefCell, a function pointer, a
// zero-sized structure, the unit value,
// Box, a trait object, a closure's frame, a generic function, a function
// rustc -O inlines, statics: stopped in probe, called from main through
// a closure, work, inlined_helper and generic::<i32>.
// std::hint::black_box is rustc 1.66+; Debian 12's rustc 1.63 (the one a
// fresh machine's apt brings) has it unstable. This one does what
// core::hint's did before the intrinsic (llvm_asm!, with asm! stable since
// 1.59): an empty asm statement given the value's address, which may read
// and write any memory, so the value is opaque to the optimizer and stays
// in memory (the locations at the probe are std's; an out-of-line
// identity through a volatile read left -O2's opt in a reused stack slot).
#[inline]
fn black_box<T>(dummy: T) -> T {
    unsafe { std::arch::asm!("/* {0} */", in(reg) &dummy, options(nostack)) };
    dummy
}

#[derive(Debug, Clone, Copy)]
struct Point {
    x: i32,
    y: i64,
}

#[derive(Debug)]
enum Shape {
    Circle(f64),
    Rect { w: u32, h: u32 },
    Empty,
}

trait Area {
    fn area(&self) -> f64;
}

impl Area for Shape {
    #[inline(never)]
    fn area(&self) -> f64 {
        let a = match self {
            Shape::Circle(r) => 3.0 * r * r,
            Shape::Rect { w, h } => (*w as f64) * (*h as f64),
            Shape::Empty => 0.0,
        };
        probe(a as u32) as f64 + a
    }
}

struct Pair<T> {
    first: T,
    second: T,
}

#[derive(Debug, Clone, Copy)]
struct Marker;

static COUNTER: u32 = 7;
static mut STEPS: [u16; 3] = [1, 2, 3];

#[inline(never)]
fn probe(depth: u32) -> u32 {
    unsafe { std::ptr::read_volatile(&depth) }
}

#[inline(never)]
fn generic<T: Copy + Into<i64>>(pair: &Pair<T>, scale: i64) -> i64 {
    let sum: i64 = pair.first.into() + pair.second.into();
    let scaled = sum * scale;
    scaled + probe(black_box(2)) as i64
}

fn inlined_helper(v: &[u16], bias: u64, pair: &Pair<i32>) -> u64 {
    let mut total = bias;
    for &x in v {
        total += x as u64;
    }
    total + generic(pair, black_box(3)) as u64
}

#[inline(never)]
fn work(p: Point, s: &Shape, v: &[u16], name: &str, dynamic: &dyn Area, pair: &Pair<i32>) -> u64 {
    let opt: Option<i32> = if p.x > 0 { Some(p.x * 2) } else { None };
    let niche: Option<&Point> = if p.y < 0 { Some(&p) } else { None };
    let tup = (p.x, 3.5f32, 'z');
    let arr = [1u8, 2, 3, 4];
    let flag = name.len() > 3;
    let big: u128 = black_box(0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10);
    let total = inlined_helper(v, 5, pair);
    let d = dynamic.area() as u64;
    black_box((&opt, &niche, &tup, &arr, flag, big));
    total + name.len() as u64 + opt.unwrap_or(0) as u64 + tup.0 as u64 + arr[2] as u64 + d
        + match s {
            Shape::Circle(_) => 1,
            Shape::Rect { w, .. } => *w as u64,
            Shape::Empty => 0,
        }
}

fn main() {
    let p = Point { x: 5, y: -7 };
    let s = Shape::Rect { w: 3, h: 4 };
    let c = Shape::Circle(1.5);
    let v = vec![10u16, 20, 30];
    let boxed = Box::new(42i64);
    let text = String::from("hello");
    let pair = Pair { first: 3i32, second: 4i32 };
    let scale = black_box(6i64);
    let ordering = black_box(std::cmp::Ordering::Less);
    let res: Result<i32, String> = Err(String::from("bad"));
    let ok_res: Result<u8, ()> = black_box(Ok(9));
    let grid = black_box([[1i32, 2], [3, 4], [5, 6]]);
    let raw: *const u16 = v.as_ptr();
    let fptr: fn(u32) -> u32 = probe;
    let unit = black_box(());
    let rc = std::rc::Rc::new(Point { x: 1, y: 2 });
    let cell = std::cell::RefCell::new(5u8);
    let maybe_box: Option<Box<i64>> = Some(Box::new(8));
    let points = vec![p, p];
    let words: &[&str] = &["a", "bc"];
    let wide: i128 = black_box(-5);
    let ch = black_box('\u{3bb}');
    let zst = black_box(Marker);
    let dynbox: Box<dyn Area> = Box::new(Shape::Empty);
    black_box((&res, &raw, &fptr, &unit, &rc, &cell, &maybe_box, &points, &words, &wide,
               &ch, &zst, &dynbox, &ordering, &ok_res, &grid));
    let closure = |k: i64| -> u64 { work(p, &s, &v, &text, &c, &pair) + (k * scale + *boxed) as u64 };
    let n = closure(2);
    black_box(&Shape::Empty);
    unsafe {
        STEPS[1] += 1;
    }
    println!("{} {:?} {:?} {}", n, s, c, COUNTER);
}
