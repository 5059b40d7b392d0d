this is not python (
