"""The widgets of networked play over the room store (the top-level `rooms` package): a
student's seat (`widgets.together.seat.SeatSession`) and the teacher's class view
(`widgets.together.class_view.ClassView`)."""
