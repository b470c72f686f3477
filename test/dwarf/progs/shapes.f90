! shapes.f90 (test/dwarf/check_vars.py fortran_sizes): pointer sections
! of a dummy array; at -O2 gfortran keeps their descriptors in pieces of
! implicit values and registers, and its bounds expressions start with
! DW_OP_push_object_address DW_OP_plus_uconst, which such a descriptor
! cannot serve (it has no address): the sizes are unknown, and dwexpr
! vars says why. The probe is in a unit of its own (shapes_probe.f90).
module shapes_m
  implicit none
  integer :: sink_n = 0
contains
  subroutine shapes(a, n)
    integer, intent(in) :: n
    real(8), target, intent(inout) :: a(n, n)
    real(8), pointer :: p(:), q(:, :)
    p => a(2, 1:n:2)
    q => a(1:n:2, 2:n)
    call probe(n)
    sink_n = sink_n + int(sum(p)) + int(q(1, 1))
  end subroutine
end module

program main
  use shapes_m
  implicit none
  real(8) :: m(4, 4)
  m = 1.0d0
  call shapes(m, 4)
  print *, sink_n
end program
