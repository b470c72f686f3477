! test/dwarf/progs/bounds.f90: Fortran arrays as gfortran describes them
! without DW_AT_lower_bound (the language's default lower bound is 1,
! DWARF 5 Table 7.17): locals, a module array, an array member of a
! derived type, two dimensions; and an explicit lower bound below zero.
! Strided sections passed as assumed-shape arguments: DW_AT_byte_stride
! of the subrange computed from the descriptor (DW_OP_push_object_address),
! positive and negative (DWARF 5 5.13). Character variables of a fixed and
! of an assumed length (DW_TAG_string_type: GDB's character*13,
! character*(*)).
module bounds_m
  implicit none
  type :: point
    real(8) :: x, y
    integer :: tag
  end type
  type :: poly
    integer :: n
    type(point) :: pts(3)
    logical :: closed
  end type
  integer, volatile :: sink_b = 0
  real(8) :: m_vec(4) = [1d0, 2d0, 3d0, 4d0]
  integer :: m_low(-2:2) = [-20, -10, 0, 10, 20]
contains
  subroutine probe_b(n)
    integer, intent(in) :: n
    sink_b = n
  end subroutine

  subroutine take(arr, back, label)
    real(8), intent(in) :: arr(:), back(:)
    character(len=*), intent(in) :: label
    character(len=13) :: copy
    copy = label
    call probe_b(int(arr(2) + back(1)) + size(arr) + size(back) + len(label) + &
                 ichar(copy(2:2)))
  end subroutine
end module

program bounds
  use bounds_m
  implicit none
  type(poly) :: pg
  real(8) :: data(5)
  integer :: grid(3, 2)
  integer :: k
  character(len=13) :: txt
  txt = 'labelled text'
  pg%n = 3
  pg%closed = .true.
  do k = 1, 3
    pg%pts(k) = point(dble(k), dble(-k), k * 10)
  end do
  data = [(dble(k) / 2, k = 1, 5)]
  grid = reshape([1, 2, 3, 4, 5, 6], [3, 2])
  call take(data(2:5:2), data(5:1:-2), txt)
  print *, pg%n, grid(2, 1), m_vec(2), m_low(-1)
end program
