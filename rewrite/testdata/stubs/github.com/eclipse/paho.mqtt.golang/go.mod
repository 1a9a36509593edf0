module github.com/eclipse/paho.mqtt.golang

go 1.22
