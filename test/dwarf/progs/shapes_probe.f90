! shapes_probe.f90: the probe of shapes.f90, never inlined into it
subroutine probe(v)
  integer, intent(in) :: v
  integer, save :: last = 0
  last = v
end subroutine
