! test/dwarf/progs/fkinds.f90: Fortran shapes no other program has, for
! `dwexpr vars` against GDB: derived types with allocatable and pointer
! components and a character component, a derived type holding a
! derived-type array, an array of such types, a type with a deferred-length
! character, an allocatable array of derived type, an allocatable scalar
! and a derived-type pointer as components, an array pointer component
! associated and not,
! an unallocated allocatable and a disassociated pointer array (GDB's
! "<not allocated>" / "<not associated>": no bytes), logical kinds 1, 2,
! 4 and 8, complex kinds 4, 8 and 16, integer kinds 1, 2, 8 and 16 at their limits, real(10), a common
! block, equivalenced variables, a pointer to an array section of a
! derived type's component, module variables of a derived type, and
! optional scalar arguments present and absent (GDB reads an absent one
! at address 0: it fails, and the comparison skips it).
module fkinds_m
  implicit none
  type :: label
    character(len=8) :: text
    integer(2) :: code
  end type
  type :: holder
    integer :: n
    real(8), allocatable :: vals(:)
    integer, pointer :: ptr => null()
    integer, pointer :: parr(:) => null()
    type(label) :: lab
    type(label) :: labs(2)
    logical(1) :: ok
  end type
  type :: bag
    character(len=:), allocatable :: name
    type(label), allocatable :: items(:)
    integer, allocatable :: one
    type(label), pointer :: next => null()
    real(4), allocatable :: empty(:)
  end type
  integer, volatile :: sink_fk = 0
  type(holder), save :: m_hold
  type(label) :: m_lab = label('module', 42_2)
  logical(2) :: m_l2 = .true.
  integer(16) :: m_i16 = -170141183460469231731687303715884105727_16
contains
  subroutine probe_fk(n)
    integer, intent(in) :: n
    sink_fk = n
  end subroutine

  subroutine opts(k, a, b, c)
    integer, intent(in) :: k
    integer, optional, intent(in) :: a
    real(8), optional, intent(in) :: b
    type(label), optional, intent(in) :: c
    integer :: got
    got = k
    if (present(a)) got = got + a
    if (present(b)) got = got + int(b)
    if (present(c)) got = got + c%code
    call probe_fk(got)
  end subroutine
end module

program fkinds
  use fkinds_m
  implicit none
  logical(1) :: l1
  logical(2) :: l2
  logical(4) :: l4
  logical(8) :: l8
  complex(4) :: z4
  complex(8) :: z8
  complex(16) :: z16
  integer(1) :: i1
  integer(2) :: i2
  integer(8) :: i8
  integer(16) :: i16
  real(10) :: r10
  integer, target :: tgt(6)
  integer, pointer :: sect(:)
  real(8), allocatable :: never(:)
  integer, pointer :: nowhere(:)
  type(holder), target :: h
  type(label), target :: labs(3)
  type(holder) :: hs(2)
  type(bag) :: bg
  integer :: ca, cb(3)
  real(8) :: cr
  common /blk/ ca, cb, cr
  integer(4) :: ev
  real(4) :: er
  equivalence (ev, er)
  integer(2) :: eparts(2)
  integer(4) :: ewhole
  equivalence (eparts, ewhole)
  l1 = .true.
  l2 = .false.
  l4 = .true.
  l8 = .true.
  z4 = (1.5, -2.5)
  z8 = (-3.25d0, 4.5d0)
  z16 = (5.5_16, -6.75_16)
  i1 = -127_1 - 1_1
  i2 = 32767_2
  i8 = -9223372036854775807_8 - 1_8
  i16 = 170141183460469231731687303715884105727_16
  r10 = 1.25_10
  tgt = [1, 2, 3, 4, 5, 6]
  sect => tgt(2:6:2)
  nullify(nowhere)
  h%n = 3
  allocate(h%vals(3))
  h%vals = [1.5d0, 2.5d0, 3.5d0]
  h%ptr => tgt(5)
  h%lab = label('hello', 7_2)
  h%labs = [label('one', 1_2), label('two', 2_2)]
  h%ok = .true.
  h%parr => tgt(1:2)
  labs = [label('a', 10_2), label('bb', 20_2), label('ccc', 30_2)]
  hs(1)%n = 1
  allocate(hs(1)%vals(2))
  hs(1)%vals = [4d0, 5d0]
  hs(2)%n = 2
  bg%name = 'deferred'
  allocate(bg%items(2), bg%one)
  bg%items = [label('x', 1_2), label('yy', 2_2)]
  bg%one = 17
  bg%next => labs(1)
  ca = 11
  cb = [12, 13, 14]
  cr = 15.5d0
  er = 1.0
  ewhole = 65538
  m_hold%n = 9
  allocate(m_hold%vals(2))
  m_hold%vals = [-1d0, -2d0]
  m_hold%lab = label('mod', 3_2)
  ! the probe stops in the first call: B absent, A and C present
  call opts(1, a=2, c=labs(2))
  call opts(4)
  print *, allocated(never), associated(nowhere), l1, l2, l4, l8, z4, z8, z16, i1, i2, i8, i16, r10, sect, h%n, h%vals, h%ptr
  print *, hs(1)%vals, bg%name, bg%items(2)%code, bg%one, bg%next%code
  print *, h%lab%text, labs(3)%text, ca, cb, cr, ev, eparts, m_lab%code, m_l2, m_i16
end program
