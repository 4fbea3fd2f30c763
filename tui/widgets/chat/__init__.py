"""The conversation view shared by the tutor chat and the simulation role-play."""
