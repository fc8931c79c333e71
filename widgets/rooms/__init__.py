"""The widgets of networked play over the room store (the top-level `rooms` package): a
student's seat (`widgets.rooms.session.SeatSession`) and the teacher's class view
(`widgets.rooms.classview.ClassView`)."""
