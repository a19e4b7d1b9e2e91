// Create a deque and use both of its ends.
import DequeModule

var colors: Deque = ["red", "yellow", "blue"]
colors.prepend("green")
colors.append("orange")
print(colors.popFirst()!) // "green"
