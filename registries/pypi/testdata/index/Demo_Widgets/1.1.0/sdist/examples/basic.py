from demo_widgets import make_widget

print(make_widget(2))
