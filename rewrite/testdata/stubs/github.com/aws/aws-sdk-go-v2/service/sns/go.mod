module github.com/aws/aws-sdk-go-v2/service/sns

go 1.22
