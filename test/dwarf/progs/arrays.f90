! test/dwarf/progs/arrays.f90: Fortran for the attributes C does not
! produce: allocatable and assumed-shape arrays (DW_AT_data_location,
! bounds and strides computed from the descriptor with
! DW_OP_push_object_address), character(len=*) (DW_AT_string_length) and a
! contained procedure that uses its host's variables (DW_AT_static_link).
module probes
  implicit none
  integer :: sink_f = 0
contains
  subroutine probe_f(n)
    integer, intent(in) :: n
    sink_f = n
  end subroutine
end module

program arrays
  use probes
  implicit none
  integer, allocatable :: a(:)
  real(8), allocatable :: m(:, :)
  character(len=:), allocatable :: s
  integer :: i, total
  allocate(a(4:7), m(2, 3))
  do i = 4, 7
    a(i) = i * 10
  end do
  m = reshape([1d0, 2d0, 3d0, 4d0, 5d0, 6d0], [2, 3])
  s = 'hello'
  total = 0
  call worker(a, s)
  print *, total, m(2, 3)
contains
  subroutine worker(x, t)
    integer, intent(in) :: x(:)
    character(len=*), intent(in) :: t
    integer :: k
    do k = 1, size(x)
      total = total + x(k)
    end do
    call probe_f(total + len(t))
  end subroutine
end program
