module github.com/aws/aws-sdk-go-v2/service/dynamodb

go 1.22
