! test/dwarf/progs/ftypes.f90: Fortran variables of every shape whose type
! GDB spells in its own notation (f-typeprint.c): integer, real, logical
! and complex kinds, character scalars and arrays, derived types (Type
! node), pointers (PTR TO -> ( ... )), allocatable scalars and arrays
! ("allocatable (:)"), pointer and assumed-shape arrays ("(:,:)"),
! explicit shapes with lower bounds ("(0:4,-1:1)"), dummy arrays whose
! bounds come from other dummies ("(1)": GDB's upper bound of a type not
! resolved for a frame is the lower bound; a lower bound from a dummy is an
! error in GDB), assumed-size arrays ("(3,*)"), polymorphic dummies
! (class), procedure pointers, qualifiers GDB drops (volatile, the const of
! a hidden character length) and module variables.
! Left out: character(len=*) and deferred-length character arrays (gfortran
! describes them by an unnamed structure that GDB 13 crashes printing), a
! character(len=n) array (GDB 13 fails an assertion printing its value) and
! an assumed-rank array (its rank is in the descriptor, DW_AT_rank, which
! dwexpr does not read: it reads one dimension).
module ftypes_m
  implicit none
  type :: node
    integer :: id
    real(4) :: w
  end type
  type, extends(node) :: tagged
    real(8) :: extra
  end type
  integer :: m_count = 7
  integer, volatile :: sink_ft = 0
  real(8), allocatable :: m_alloc(:)
  integer, pointer :: m_ptr => null()
  character(len=4) :: m_names(2) = ['ab  ', 'cd  ']
  integer :: m_grid(0:2, 3) = reshape([1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 3])
  abstract interface
    subroutine sub_iface(x, y)
      integer, intent(in) :: x
      real(8), intent(inout) :: y(:)
    end subroutine
    integer function fun_iface(x)
      integer, intent(in) :: x
    end function
  end interface
contains
  subroutine probe_ft(n)
    integer, intent(in) :: n
    sink_ft = n
  end subroutine

  subroutine apply(x, y)
    integer, intent(in) :: x
    real(8), intent(inout) :: y(:)
    y = x
  end subroutine

  integer function twice(x)
    integer, intent(in) :: x
    twice = 2 * x
  end function

  subroutine shapes(n, lo, v, w, asz, star2, cube, opt, up, poly, d, ch, p, val)
    integer, intent(in) :: n, lo
    real(8), intent(inout) :: v(n)
    integer, intent(inout) :: w(lo:n, 2)
    integer, intent(in) :: asz(*)
    integer, intent(in) :: star2(3, *)
    integer, intent(in) :: cube(2, 3, 4)
    integer, optional, intent(in) :: opt(:)
    class(*), intent(in) :: up
    class(node), intent(in) :: poly
    type(node), intent(inout) :: d
    character(len=5), intent(in) :: ch
    integer, pointer, intent(in) :: p
    integer, value :: val
    real(8) :: loc(n)
    character(len=n) :: autoc
    logical, allocatable :: la(:)
    complex(8) :: zarr(2, 2)
    integer, pointer :: p3(:, :, :)
    procedure(sub_iface), pointer :: ps
    procedure(fun_iface), pointer :: pf
    integer, volatile :: vol
    integer :: j
    loc = v
    autoc = repeat('a', n)
    allocate(la(2))
    la = .true.
    zarr = (1d0, 2d0)
    allocate(p3(1, 2, 3))
    p3 = 1
    ps => apply
    pf => twice
    vol = val
    j = 0
    if (present(opt)) j = opt(1)
    call probe_ft(int(loc(1)) + w(lo, 1) + asz(1) + star2(1, 1) + cube(1, 1, 1) + j + &
                  poly%id + d%id + len(ch) + p + vol + len(autoc) + &
                  size(la) + int(real(zarr(1, 1))) + size(p3) + pf(1))
    select type (up)
    type is (integer)
      d%id = up
    end select
    call ps(1, loc)
    deallocate(la, p3)
  end subroutine
end module

program ftypes
  use ftypes_m
  implicit none
  logical :: flag
  logical(1) :: small_flag
  complex(4) :: zc
  complex(8) :: zd
  integer(8) :: big
  integer(2) :: half
  integer(1) :: tiny
  real(4) :: r4
  real(16) :: r16
  character :: one
  character(len=6) :: names(3)
  type(node) :: nd
  type(node) :: nodes(2)
  type(tagged) :: tg
  type(node), pointer :: pnode
  type(node), allocatable :: anode
  integer, pointer :: ip
  integer, target :: tgt(4)
  integer, pointer :: parr(:)
  real(8), pointer :: p2(:, :)
  integer, allocatable :: ia(:)
  integer, allocatable :: scal
  integer :: low3(0:4, -1:1)
  real(8) :: vv(3)
  integer :: ww(0:3, 2)
  integer :: as(5)
  integer :: s2(3, 2)
  integer :: c(2, 3, 4)
  procedure(real(8)), pointer :: fp => null()
  ! arguments in writable memory (a literal's copy in .rodata is not in
  ! the contexts compare_gdb.py makes)
  integer, volatile :: n_arg, lo_arg
  character(len=5), volatile :: word
  flag = .true.
  small_flag = .false.
  zc = (1.0, 2.0)
  zd = (3d0, 4d0)
  big = 1
  half = 2
  tiny = 3
  r4 = 1.5
  r16 = 2.5
  one = 'x'
  names = ['aaaaaa', 'bbbbbb', 'cccccc']
  nd = node(1, 2.0)
  nodes = [node(3, 4.0), node(5, 6.0)]
  tg%id = 7
  tg%w = 8.0
  tg%extra = 9d0
  allocate(pnode, anode, scal)
  pnode = nd
  anode = nd
  scal = 9
  tgt = [1, 2, 3, 4]
  ip => tgt(2)
  parr => tgt(2:4)
  allocate(p2(2, 2))
  p2 = 1d0
  allocate(ia(3))
  ia = 5
  low3 = 1
  vv = 2d0
  ww = 3
  as = 4
  s2 = 6
  c = 1
  allocate(m_alloc(2))
  m_alloc = 1d0
  m_ptr => tgt(4)
  n_arg = 3
  lo_arg = 0
  word = 'hello'
  call shapes(n_arg, lo_arg, vv, ww, as, s2, c, tgt, tgt(1), tg, nd, word, ip, 4)
  print *, flag, small_flag, zc, zd, big, half, tiny, r4, r16, one, names, nd, nodes
  print *, pnode, anode, ip, parr, p2, ia, scal, low3, m_names, m_grid, associated(fp)
end program
